import { z } from "zod";

export const workspaceDeleted = z
  .object({
    deleted: z.literal(true),
    rows: z.number().int().describe("Rows deleted, over every table of the workspace"),
    jobs: z.number().int().describe("Queued jobs of the workspace that were dropped"),
    token_revoked: z.boolean().describe("Slack confirmed auth.revoke (false: already uninstalled, or Slack failed)"),
  })
  .meta({ id: "WorkspaceDeleted" });

export const memberDataDeleted = z
  .object({
    user_id: z.string(),
    deleted: z.record(z.string(), z.number().int()).describe("Rows deleted, by table"),
    changed: z
      .record(z.string(), z.number().int())
      .describe(
        "Rows kept with the member taken out (id blanked, removed from a list, mention rewritten), by table.column",
      ),
    jobs: z.number().int().describe("Jobs naming the member that were dropped (not yet run, or finished)"),
  })
  .meta({ id: "MemberDataDeleted" });
