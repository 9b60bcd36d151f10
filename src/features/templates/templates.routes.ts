import { z } from "zod";
import { sessionErrors, template } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import type { App } from "../../http/server.ts";
import { type QuestionTemplate, TEMPLATES } from "./templates.ts";

/** Copies, so nothing downstream can reach the frozen built-ins. */
export function listTemplates(): QuestionTemplate[] {
  return TEMPLATES.map((t) => ({
    name: t.name,
    questions: [...t.questions],
    question_details: t.question_details.map((d) => ({ ...d, ...(d.options ? { options: [...d.options] } : {}) })),
  }));
}

export function templateRoutes(app: App, _deps: Deps): void {
  app.get(
    "/dashboard/api/templates",
    {
      schema: {
        summary: "The 25 built-in question templates",
        response: { 200: z.array(template), ...sessionErrors },
      },
    },
    async () => listTemplates(),
  );
}
