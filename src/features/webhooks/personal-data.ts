import { ANY_PART, postKeyLike } from "../../chat/post-keys.ts";
import type { PersonalData } from "../../lib/personal-data.ts";

export const webhooksPersonalData: PersonalData = {
  feature: "webhooks",
  places: [
    {
      kind: "redact",
      table: "webhook_endpoints",
      column: "created_by",
      why: "who added an endpoint: the endpoint is the workspace's and stays, its creator's id goes",
    },
    {
      kind: "json",
      table: "webhook_deliveries",
      column: "payload",
      type: "text",
      // The shapes of payloads.ts. A finished delivery's payload is already null.
      paths: ["$.data.user.id", "$.data.from.id", "$.data.to.id", "$.data.blockers[*].user_id"],
      why: "pending deliveries about them (their answer, a kudo, a run naming their blocker): never sent",
    },
    {
      kind: "mention",
      table: "webhook_deliveries",
      column: "payload",
      type: "text",
      why: "pending deliveries of others' text that mentions them: sent with the mention rewritten",
    },
    {
      kind: "key",
      table: "chat_posts",
      column: "key",
      // The disabled-endpoint notice's key in webhooks.jobs.ts: webhook:<endpoint>:disabled:<time>:<admin>.
      patterns: (v) => [postKeyLike("webhook", ANY_PART, "disabled", ANY_PART, v.user)],
      why: "the claims of endpoint-disabled DMs sent to them as an admin",
    },
  ],
};
