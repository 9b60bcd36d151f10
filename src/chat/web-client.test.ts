import { describe, expect, it } from "vitest";
import { bodyOutcome, slackMethodOf } from "./web-client.ts";

describe("Slack call labels for the metrics", () => {
  it("names the Web API method, and anything else (response URLs, odd paths) `other`", () => {
    expect(slackMethodOf("https://slack.com/api/chat.postMessage")).toBe("chat.postMessage");
    expect(slackMethodOf("http://127.0.0.1:4567/api/admin.conversations.setTeams")).toBe(
      "admin.conversations.setTeams",
    );
    expect(slackMethodOf("https://slack.com/api/users.info?user=U123")).toBe("users.info");
    expect(slackMethodOf("https://hooks.slack.com/commands/T0123/456789/AbCdEfGh")).toBe("other");
    expect(slackMethodOf("https://files.slack.com/upload/v1/CwABAAAAXgoAAZ")).toBe("other");
    expect(slackMethodOf("https://slack.com/api/chat.postMessage.xoxb-123-secret")).toBe("other");
  });

  it("sorts an answer into ok or the class of its error code, never the code itself", () => {
    expect(bodyOutcome('{"ok":true,"ts":"1.2"}')).toBe("ok");
    expect(bodyOutcome('{"ts":"1.2","ok":true}')).toBe("ok");
    expect(bodyOutcome('{"ok":false,"error":"ratelimited"}')).toBe("rate_limited");
    expect(bodyOutcome('{"ok":false,"error":"invalid_blocks"}')).toBe("payload_refused");
    expect(bodyOutcome('{"ok":false,"error":"is_archived"}')).toBe("destination_gone");
    expect(bodyOutcome('{"ok":false,"error":"token_revoked"}')).toBe("auth_error");
    expect(bodyOutcome('{"ok":false,"error":"some_new_code"}')).toBe("slack_error");
    expect(bodyOutcome("<html>bad gateway</html>")).toBe("http_error");
  });
});
