import { z } from "zod";
import { adminErrors, errorBody, mutationErrors, okBody, rule } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import type { App } from "../../http/server.ts";
import { MAX_RULES, ruleCreateInput, ruleUpdateInput } from "./rules.input.ts";
import { createRule, deleteRule, listRules, updateRule } from "./rules.service.ts";

const byId = z.object({ rule_id: z.string().describe("Rule id") });
const notFound = { 404: errorBody.describe("No such rule in this workspace") };
/** When Slack cannot answer the check of a target channel, nothing is stored. */
const slackDown = { 500: errorBody.describe("Slack could not be reached to check the target channel") };

export function ruleRoutes(app: App, deps: Deps): void {
  app.get(
    "/dashboard/api/rules",
    {
      config: { admin: true },
      schema: {
        summary: `Every workflow rule of the workspace, oldest first (at most ${MAX_RULES})`,
        response: { 200: z.array(rule), ...adminErrors },
      },
    },
    async (req) => listRules(deps, requireSession(req).teamId),
  );

  app.post(
    "/dashboard/api/rules",
    {
      config: { admin: true },
      schema: {
        summary: "Create a workflow rule",
        body: ruleCreateInput,
        response: { 201: rule, ...adminErrors, ...mutationErrors, ...slackDown },
      },
    },
    async (req, reply) => {
      const s = requireSession(req);
      return reply.status(201).send(await createRule(deps, s.teamId, s.userId, req.body));
    },
  );

  app.put(
    "/dashboard/api/rules/:rule_id",
    {
      config: { admin: true },
      schema: {
        summary: "Change a workflow rule (turn it on or off, or any field); omitted fields stay as they are",
        params: byId,
        body: ruleUpdateInput,
        response: {
          200: rule,
          ...adminErrors,
          ...mutationErrors,
          ...notFound,
          409: errorBody.describe("Changed by someone else at the same moment; retry"),
          ...slackDown,
        },
      },
    },
    async (req) => updateRule(deps, requireSession(req).teamId, req.params.rule_id, req.body),
  );

  app.delete(
    "/dashboard/api/rules/:rule_id",
    {
      config: { admin: true },
      schema: {
        summary: "Delete a workflow rule",
        params: byId,
        response: { 200: okBody, ...adminErrors, ...notFound },
      },
    },
    async (req) => deleteRule(deps, requireSession(req).teamId, req.params.rule_id),
  );
}
