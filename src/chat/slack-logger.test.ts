import { LogLevel, WebAPIPlatformError } from "@slack/web-api";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { startFakeSlack } from "../../dev/fake-slack/index.ts";
import { createLogger } from "../deps.ts";
import { loggableError, scrubSecrets } from "../lib/log-scrub.ts";
import { slackLogger, slackLogLine } from "./slack-logger.ts";
import { makeWebClient } from "./web-client.ts";

interface Entry {
  level: number;
  component?: string;
  msg: string;
  [key: string]: unknown;
}

function capture(level: string) {
  const entries: Entry[] = [];
  const log = pino({ level }, { write: (line: string) => void entries.push(JSON.parse(line) as Entry) });
  return { log, entries, msgs: () => entries.map((e) => e.msg) };
}

describe("scrubSecrets", () => {
  it("masks Slack tokens, MCP keys, webhook secrets, bearer values, login tokens, query strings, feed paths and cookies", () => {
    const login = "eyJ0ZWFtX2lkIjoiVDEiLCJ1c2VyX2lkIjoiVTEifQ.q3Jd8wP0c0mW8oZ6cXv2r4M9s1aT7bYkLlNn0pQrStU";
    const text = [
      "bot xoxb-1234-5678-AbCdEf user xoxp-99-88 refresh xoxe-1-abc app xapp-1-A1-2-ff",
      "key svc_0123456789abcdefABCDEF0123456789abcdef secret whsec_c2VjcmV0K2tleQ==",
      "Authorization: Bearer abc.def-ghi",
      `token ${login}`,
      `link http://localhost:3000/dashboard/login?t=${login}&x=1 and /dashboard/login?t=short`,
      "GET /feed/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcd",
      "cookie: svc_session=s3ss10n; other=1",
      "sent svc_session=abcdef0123456789",
    ].join("\n");
    const clean = scrubSecrets(text);
    for (const secret of [
      "1234-5678-AbCdEf",
      "xoxp-99-88",
      "xoxe-1-abc",
      "A1-2-ff",
      "0123456789abcdefABCDEF",
      "c2VjcmV0K2tleQ",
      "abc.def-ghi",
      login,
      "t=short",
      "AbCdEfGhIjKlMnOp",
      "s3ss10n",
      "abcdef0123456789",
    ]) {
      expect(clean).not.toContain(secret);
    }
    expect(clean).toContain("http://localhost:3000/dashboard/login?[query]");
    expect(clean).toContain("/feed/[token]");
    expect(scrubSecrets("apiCall('chat.postMessage') start")).toBe("apiCall('chat.postMessage') start");
  });

  it("masks each secret shape standing alone (the quick pre-check lets none through) and leaves plain text as it is", () => {
    const login = "eyJ0ZWFtX2lkIjoiVDEiLCJ1c2VyX2lkIjoiVTEifQ.q3Jd8wP0c0mW8oZ6cXv2r4M9s1aT7bYkLlNn0pQrStU";
    const alone: [string, string][] = [
      ["xoxb-1234-5678-AbCdEf", "1234-5678"],
      ["XAPP is xapp-1-A1-2-ff", "A1-2-ff"],
      ["svc_0123456789abcdefABCDEF0123456789abcdef", "0123456789abcdef"],
      ["whsec_c2VjcmV0K2tleQ==", "c2VjcmV0K2tleQ"],
      ["authorization: bearer abc.def-ghi", "abc.def-ghi"],
      ["Authorization: BASIC dXNlcjpwYXNz", "dXNlcjpwYXNz"],
      [login, login],
      ["see https://example.test/callback?code=abc123", "abc123"],
      ["redirect to /install?state=st4t3", "st4t3"],
      ["/login?t=short", "short"],
      ["&client_secret=s3cr3t", "s3cr3t"],
      ["GET /feed/AbCdEfGhIjKlMnOp", "AbCdEfGhIjKlMnOp"],
      ["Set-Cookie: a=b; HttpOnly", "a=b"],
      ["svc_session=abcdef0123456789", "abcdef0123456789"],
      ["Failed query: select 1\nparams: my answer", "my answer"],
    ];
    for (const [text, secret] of alone) expect(scrubSecrets(text), text).not.toContain(secret);
    for (const plain of ["3f1c2a9e-7b4d-4e2a-9c1f-0a1b2c3d4e5f", "POST /chat/events 200", "a run of 12 DMs", ""]) {
      expect(scrubSecrets(plain)).toBe(plain);
    }
  });

  it("keeps drizzle's failed query but not its parameters (a row's values, answer text among them)", () => {
    expect(scrubSecrets('Failed query: insert into "responses" ($1, $2)\nparams: T1,my secret answer\nmore')).toBe(
      'Failed query: insert into "responses" ($1, $2)\nparams: [omitted]',
    );
  });

  it("an error is logged by name, code and scrubbed message, never by the request or response it carries", () => {
    const err = Object.assign(new Error("An API error occurred: invalid_blocks"), {
      code: "slack_webapi_platform_error",
      data: { ok: false, error: "invalid_blocks", view: "?t=secret" },
      headers: { authorization: "Bearer xoxb-1-2" },
    });
    const out = loggableError(err);
    expect(out).toMatchObject({ type: "Error", code: "slack_webapi_platform_error" });
    expect(Object.keys(out).sort()).toEqual(["code", "message", "stack", "type"]);
    expect(loggableError(new Error("wrapped", { cause: new Error("duplicate key xoxb-1-2") })).cause).toEqual({
      type: "Error",
      message: "duplicate key xox?-[redacted]",
    });
  });
});

describe("createLogger", () => {
  it("scrubs the message and top-level text fields of every line, and serialises errors without their payloads", () => {
    const lines: string[] = [];
    const log = createLogger({ logLevel: "debug" }, { write: (l: string) => void lines.push(l) });
    const platform = new WebAPIPlatformError({ ok: false, error: "not_in_channel", response_metadata: {} });
    (platform as unknown as { data: Record<string, unknown> }).data.echo = "answer text";
    log.child({ component: "test" }).warn({ err: "failed with xoxb-9-9", team_id: "T1" }, "Bearer svc_session");
    log.error({ err: platform }, "call failed for svc_0123456789abcdefABCDEF0123456789");
    const text = lines.join("");
    expect(text).not.toMatch(/xoxb-9-9|answer text|0123456789abcdefABCDEF/);
    expect(JSON.parse(lines[1]!).err).toMatchObject({
      type: "WebAPIPlatformError",
      code: "slack_webapi_platform_error",
    });
  });
});

describe("createLogger, nested", () => {
  it("scrubs fields at any depth, reduces an Error under any key, and scrubs child loggers' fields", () => {
    const lines: string[] = [];
    const log = createLogger({ logLevel: "debug" }, { write: (l: string) => void lines.push(l) });
    const slackErr = Object.assign(new Error("An API error occurred: invalid_blocks"), {
      data: { text: "my private answer", view: "?t=eyJsecret" },
    });
    log.warn(
      { error: slackErr, ctx: { url: "http://x/dashboard/login?t=abc.def", list: ["xoxb-9-9"] } },
      "nested fields",
    );
    log.child({ link: "http://x/dashboard/login?t=zzz" }).child({ key: "svc_0123456789abcdefABCDEF" }).info("child");
    const text = lines.join("");
    expect(text).not.toMatch(/my private answer|eyJsecret|abc\.def|xoxb-9-9|t=zzz|0123456789abcdefABCDEF/);
    expect(JSON.parse(lines[0]!).error).toMatchObject({
      type: "Error",
      message: "An API error occurred: invalid_blocks",
    });
    const child = JSON.parse(lines[1]!);
    expect(child).toMatchObject({ link: "http://x/dashboard/login?[query]", key: "svc_[redacted]", msg: "child" });
  });
});

describe("slackLogLine", () => {
  it("drops the Web API client's URL, body and header lines and reduces results to ok or Slack's error code", () => {
    expect(slackLogLine(["http request url: http://127.0.0.1:1/api/views.publish"])).toBeUndefined();
    expect(slackLogLine(['http request body: {"view":"{\\"url\\":\\"?t=x\\"}"}'])).toBeUndefined();
    expect(slackLogLine(['http request headers: {"Authorization":"[[REDACTED]]"}'])).toBeUndefined();
    expect(slackLogLine(['http request result: {"ok":true,"messages":[{"text":"answer"}]}'])).toBe(
      "http request result: ok",
    );
    expect(slackLogLine(['http request result: {"ok":false,"error":"channel_not_found","x":"answer"}'])).toBe(
      "http request result: error channel_not_found",
    );
    expect(slackLogLine(["http request result: {truncated"])).toBe("http request result: [omitted]");
  });

  it("keeps method names, loses absolute URLs, JSON payloads and objects, and scrubs what is left", () => {
    expect(slackLogLine(["apiCall('views.publish') start"])).toBe("apiCall('views.publish') start");
    expect(slackLogLine(["apiCall('https://hooks.slack.com/actions/T1/2/secret?x=1') end"])).toBe(
      "apiCall('[url]') end",
    );
    expect(slackLogLine(['{"event":{"text":"my answer"}}'])).toBe("[payload omitted]");
    expect(slackLogLine(["Slack API error: invalid_auth", { data: { text: "answer" } }])).toBe(
      "Slack API error: invalid_auth [object omitted]",
    );
    expect(slackLogLine(["http request failed", "connect to http://x/?token=xoxb-1-2 refused"])).toBe(
      "http request failed connect to http://x/?[query] refused",
    );
    const err = Object.assign(new Error("An API error occurred: ratelimited"), { code: "slack_webapi_rate_limited" });
    expect(slackLogLine([err])).toBe("Error (slack_webapi_rate_limited): An API error occurred: ratelimited");
  });
});

describe("slackLogger", () => {
  it("logs a line only when both the library's level and pino's allow it", () => {
    const atDebug = capture("debug");
    const bolt = slackLogger(atDebug.log, "bolt");
    expect(bolt.getLevel()).toBe(LogLevel.DEBUG);
    bolt.debug("apiCall('a.b') start");
    bolt.setLevel(LogLevel.WARN);
    bolt.debug("apiCall('c.d') start");
    bolt.info("an info line");
    bolt.warn("a warning");
    expect(atDebug.msgs()).toEqual(["apiCall('a.b') start", "a warning"]);
    expect(atDebug.entries[0]).toMatchObject({ level: 20, component: "bolt" });

    const atWarn = capture("warn");
    const web = slackLogger(atWarn.log, "slack-web-api");
    expect(web.getLevel()).toBe(LogLevel.WARN);
    web.setLevel(LogLevel.DEBUG);
    web.debug("apiCall('a.b') start");
    web.info("an info line");
    web.error("an error with xoxb-1-2");
    expect(atWarn.entries).toEqual([expect.objectContaining({ level: 50, msg: "an error with xox?-[redacted]" })]);
  });

  describe("on a real Web API client", async () => {
    const fake = await startFakeSlack();
    afterAll(() => fake.close());
    fake.addTeam({ id: "T1", name: "Acme", botToken: "xoxb-acme-1", botUserId: "UBOT1" });
    fake.addUser("T1", { id: "U1", name: "u1", real_name: "U One" });

    it("rate limits and dropped connections still reach the log, without the request", async () => {
      const { log, entries } = capture("info");
      const client = makeWebClient({ chatApiUrl: fake.url }, log, "xoxb-acme-1", "read");
      fake.fail("users.info", { status: 429, retryAfter: 0 });
      fake.fail("users.info", { drop: true });
      await client.users.info({ user: "U1" });
      expect(entries.map((e) => [e.level, e.component, e.msg])).toEqual([
        [30, "slack-web-api", "API Call failed due to rate limiting. Will retry in 0 seconds."],
        [40, "slack-web-api", expect.stringMatching(/^http request failed A rate limit was exceeded \(url: http/)],
        [40, "slack-web-api", "http request failed fetch failed"],
      ]);
      expect(JSON.stringify(entries)).not.toContain("xoxb-acme-1");
    });
  });
});
