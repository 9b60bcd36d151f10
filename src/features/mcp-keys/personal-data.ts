import type { PersonalData } from "../../lib/personal-data.ts";

export const mcpKeysPersonalData: PersonalData = {
  feature: "mcp-keys",
  places: [
    {
      kind: "redact",
      table: "mcp_keys",
      column: "created_by",
      why: "who created a key: the key is the workspace's and keeps working (an admin revokes it), its creator's id goes",
    },
    {
      kind: "rows",
      table: "oauth_grants",
      column: "user_id",
      why: "the AI clients a member connected: their tokens stop working with the grant (tokens carry no user id)",
    },
  ],
};
