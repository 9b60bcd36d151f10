import type { FastifyInstance } from "fastify";
import type { Deps } from "../../deps.ts";
import { type QuestionTemplate, TEMPLATES } from "./templates.ts";

/** Copies, so nothing downstream can reach the frozen built-ins. */
export function listTemplates(): QuestionTemplate[] {
  return TEMPLATES.map((template) => ({ name: template.name, questions: [...template.questions] }));
}

export function templateRoutes(app: FastifyInstance, _deps: Deps): void {
  app.get("/dashboard/api/templates", async () => listTemplates());
}
