import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { LogLevel, WebAPIPlatformError, WebClient } from "@slack/web-api";
import { describe, expect, it } from "vitest";
import { startFakeSlack } from "../../../dev/fake-slack/index.ts";
import { BOT_EVENTS, BOT_SCOPES } from "./slack-app.ts";

/**
 * Every Web API method the service calls, and the bot scopes it needs (per Slack's method reference). Where Slack
 * takes one scope per conversation type, the list holds each type the service calls it on: standups post in public
 * and private channels and in DMs. A new call in src/ that is not in this table fails the scan below.
 */
const METHOD_SCOPES: Record<string, string[]> = {
  "auth.revoke": [], // any token may revoke itself (deleting a workspace's data)
  "auth.test": [], // any token may test itself (the daily token check)
  "chat.postEphemeral": ["chat:write"],
  "chat.postMessage": ["chat:write"],
  "chat.update": ["chat:write"],
  // post-once: finding its own message after an unclear failure, in public and private channels and DMs.
  "conversations.history": ["channels:history", "groups:history", "im:history"],
  "conversations.replies": ["channels:history", "groups:history", "im:history"],
  "conversations.info": ["channels:read", "groups:read"],
  "conversations.join": ["channels:join"],
  "conversations.list": ["channels:read", "groups:read"],
  "conversations.members": ["channels:read", "groups:read"],
  "conversations.open": ["im:write"],
  "oauth.v2.access": [], // tokenless: the client id and secret
  "reactions.add": ["reactions:write"],
  "team.info": ["team:read"], // the workspace's name at a start with CHAT_BOT_TOKEN
  // users:read.email: the e-mail address in the profile (welcome and digest e-mails).
  "users.info": ["users:read", "users:read.email"],
  "users.list": ["users:read", "users:read.email"],
  "views.open": [],
  "views.publish": [],
};

/** Event types the code listens to (`bolt.event(type)`) → the subscriptions Slack delivers them through. */
const LISTENED_EVENTS: Record<string, string[]> = {
  app_home_opened: ["app_home_opened"],
  app_uninstalled: ["app_uninstalled"],
  // DMs (answers) and public channels (kudos); message.groups (private channels) is opt-in, see slack-app.ts.
  message: ["message.channels", "message.im"],
  team_join: ["team_join"],
  tokens_revoked: ["tokens_revoked"],
  user_change: ["user_change"],
};

/** The scope each subscribed bot event needs (Slack's events reference); none for the others. */
const EVENT_SCOPES: Record<string, string[]> = {
  app_home_opened: [],
  app_uninstalled: [],
  "message.channels": ["channels:history"],
  "message.groups": ["groups:history"],
  "message.im": ["im:history"],
  team_join: ["users:read"],
  tokens_revoked: [],
  user_change: ["users:read"],
};

const SRC = join(import.meta.dirname, "../..");

function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [path] : [];
  });
}

const web = new WebClient();

/** A dotted path that names a Web API method on a WebClient (its methods are `apiCall` bound to the method name). */
function webApiMethod(path: string[]): string | undefined {
  let v: unknown = web;
  for (const part of path) {
    if (v === null || (typeof v !== "object" && typeof v !== "function")) return undefined;
    if (!Object.hasOwn(v as object, part)) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return typeof v === "function" && v.name.startsWith("bound ") && path.length > 1 ? path.join(".") : undefined;
}

/** Every Web API method a piece of TypeScript calls: `<anything>.chat.postMessage(`, `apiCall("team.info"`. */
function webApiCalls(code: string): string[] {
  const found = new Set<string>();
  for (const m of code.matchAll(/\.\s*((?:[A-Za-z_$][\w$]*\s*\.\s*)+[A-Za-z_$][\w$]*)\s*\(/g)) {
    const parts = m[1]!.split(".").map((p) => p.trim());
    // `a.client.chat.postMessage(`: the longest tail that is a method.
    for (let i = 0; i < parts.length - 1; i++) {
      const method = webApiMethod(parts.slice(i));
      if (method) {
        found.add(method);
        break;
      }
    }
  }
  for (const m of code.matchAll(/\b(?:apiCall|paginate)\s*\(\s*["'`]([\w.]+)["'`]/g)) found.add(m[1]!);
  return [...found].sort();
}

function listenedEvents(code: string): string[] {
  return [...code.matchAll(/\.event\(\s*["'`]([\w.]+)["'`]/g)].map((m) => m[1]!);
}

const files = sourceFiles();
const code = new Map(files.map((f) => [relative(SRC, f), readFileSync(f, "utf8")]));

describe("the Slack app's one list of scopes and events", () => {
  it("the scanner finds Web API calls however they are written, and nothing else", () => {
    expect(webApiCalls("await client.pins.add({ channel, timestamp });")).toEqual(["pins.add"]);
    expect(webApiCalls("(await deps.chat.forTeam(teamId, 'post')).chat.postMessage({})")).toEqual(["chat.postMessage"]);
    expect(webApiCalls("deps.chat.anonymous().oauth.v2.access({ code })")).toEqual(["oauth.v2.access"]);
    expect(webApiCalls("client.users\n      .profile.get({ user })")).toEqual(["users.profile.get"]);
    expect(webApiCalls('client.apiCall("team.info", {})')).toEqual(["team.info"]);
    expect(webApiCalls("deps.log.info({}, 'x'); z.string().min(1); deps.chat.forTeam(t); a.toString.call(b)")).toEqual(
      [],
    );
  });

  it("every Web API method called in src/ is in the table, and the table lists only methods called", () => {
    const calledBy = new Map<string, string[]>();
    for (const [file, text] of code) {
      for (const method of webApiCalls(text)) calledBy.set(method, [...(calledBy.get(method) ?? []), file]);
    }
    const unknown = [...calledBy].filter(([m]) => !(m in METHOD_SCOPES)).map(([m, f]) => `${m} (${f.join(", ")})`);
    expect(unknown, "add these methods and their scopes to METHOD_SCOPES (and to BOT_SCOPES)").toEqual([]);
    expect(Object.keys(METHOD_SCOPES).sort()).toEqual([...calledBy.keys()].sort());
  });

  it("every event listened to in src/ is a subscription in BOT_EVENTS, and every subscription has a listener", () => {
    const listened = new Set([...code.values()].flatMap(listenedEvents));
    expect([...listened].filter((e) => !(e in LISTENED_EVENTS))).toEqual([]);
    expect(Object.keys(LISTENED_EVENTS).sort()).toEqual([...listened].sort());
    expect([...BOT_EVENTS].sort()).toEqual([...new Set([...listened].flatMap((e) => LISTENED_EVENTS[e]!))].sort());
    expect(BOT_EVENTS).not.toContain("message.groups");
  });

  it("BOT_SCOPES covers every method, event and the slash command, and holds nothing else", () => {
    const usesCommands = [...code.values()].some((text) => /\bbolt\.command\(/.test(text));
    expect(usesCommands).toBe(true);
    const needed = new Set([
      ...Object.values(METHOD_SCOPES).flat(),
      ...BOT_EVENTS.flatMap((e) => {
        expect(EVENT_SCOPES, `scope of event ${e}`).toHaveProperty([e]);
        return EVENT_SCOPES[e]!;
      }),
      ...(usesCommands ? ["commands"] : []),
    ]);
    const missing = [...needed].filter((s) => !(BOT_SCOPES as readonly string[]).includes(s));
    expect(missing, "scopes the code needs but /install and the manifest do not ask for").toEqual([]);
    const unused = BOT_SCOPES.filter((s) => !needed.has(s));
    expect(unused, "scopes asked for that no call, event or command needs").toEqual([]);
  });
});

describe("a token with exactly BOT_SCOPES (the fake Slack checks scopes as Slack does)", () => {
  it("may call every method in the table on every kind of conversation the service uses", async () => {
    const fake = await startFakeSlack();
    try {
      fake.addTeam({ id: "T1", name: "Acme", botToken: "xoxb-1", botUserId: "UBOT", scopes: [...BOT_SCOPES] });
      fake.addUser("T1", { id: "UA", name: "ana", real_name: "Ana", email: "ana@acme.test" });
      fake.addChannel("T1", { id: "CPUB", name: "standup", members: ["UA"] });
      fake.addChannel("T1", { id: "GPRIV", name: "secret", is_private: true, members: ["UBOT", "UA"] });
      const slack = new WebClient("xoxb-1", {
        slackApiUrl: fake.url,
        retryConfig: { retries: 0 },
        logLevel: LogLevel.ERROR,
      });
      const refused: string[] = [];
      const tried = new Set<string>();
      const call = async (method: string, args: Record<string, unknown>) => {
        tried.add(method);
        try {
          return (await slack.apiCall(method, args)) as unknown as Record<string, unknown>;
        } catch (err) {
          if (!(err instanceof WebAPIPlatformError)) throw err;
          if (["missing_scope", "not_allowed_token_type"].includes(err.data.error)) {
            refused.push(`${method} ${JSON.stringify(args)}: ${err.data.error}`);
          }
          return {};
        }
      };
      await call("conversations.join", { channel: "CPUB" });
      const dm = (await call("conversations.open", { users: "UA" })).channel as { id: string };
      expect(dm?.id).toBeTruthy();
      for (const channel of ["CPUB", "GPRIV", dm.id]) {
        const posted = await call("chat.postMessage", { channel, text: "hi" });
        const ts = String(posted.ts);
        await call("chat.update", { channel, ts, text: "hi again" });
        await call("conversations.history", { channel });
        await call("conversations.replies", { channel, ts });
        await call("reactions.add", { channel, timestamp: ts, name: "tada" });
      }
      for (const channel of ["CPUB", "GPRIV"]) {
        await call("conversations.info", { channel });
        await call("conversations.members", { channel });
        await call("chat.postEphemeral", { channel, user: "UA", text: "only you" });
      }
      await call("conversations.list", { types: "public_channel,private_channel" });
      await call("users.list", {});
      await call("users.info", { user: "UA" });
      await call("views.publish", { user_id: "UA", view: { type: "home", blocks: [] } });
      await call("views.open", {
        trigger_id: "1.2.3",
        view: { type: "modal", title: { type: "plain_text", text: "x" } },
      });
      await call("auth.test", {});
      await call("team.info", {});
      await call("auth.revoke", {});
      // Without groups:history, the lookup in the private channel would be refused here.
      expect(refused).toEqual([]);
      // Every method the code calls with the bot token was tried (oauth.v2.access is tokenless).
      expect([...tried].sort()).toEqual(
        Object.keys(METHOD_SCOPES)
          .filter((m) => m !== "oauth.v2.access")
          .sort(),
      );
    } finally {
      await fake.close();
    }
  });
});
