import {
  ErrorCode,
  LogLevel,
  type UsersListResponse,
  WebAPIHTTPError,
  WebAPIPlatformError,
  WebAPIRateLimitedError,
  WebAPIRequestError,
  WebClient,
  type WebClientOptions,
} from "@slack/web-api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeSlack, startFakeSlack } from "./index.ts";

let fake: FakeSlack;

beforeEach(async () => {
  fake = await startFakeSlack();
  fake.addTeam({ id: "T1", name: "Acme", botToken: "xoxb-acme", botUserId: "UBOT1" });
  fake.addTeam({ id: "T2", name: "Globex", botToken: "xoxb-globex", botUserId: "UBOT2" });
  for (let i = 1; i <= 5; i++) {
    fake.addUser("T1", { id: `UA${i}`, name: `a${i}`, real_name: `Acme ${i}`, email: `a${i}@acme.test` });
  }
  fake.addUser("T2", { id: "UG1", name: "g1", real_name: "Globex 1", tz: "Europe/Berlin" });
  fake.addChannel("T1", { id: "CSTANDUP", name: "standup", members: ["UBOT1", "UA1", "UA2"] });
  fake.addChannel("T1", { id: "COLD", name: "old", is_archived: true, members: ["UBOT1"] });
  fake.addChannel("T1", { id: "GSECRET", name: "secret", is_private: true, members: ["UBOT1", "UA1"] });
  fake.addChannel("T1", { id: "GHIDDEN", name: "hidden", is_private: true, members: ["UA1"] });
  fake.addChannel("T2", { id: "CGLOBEX", name: "general", members: ["UBOT2", "UG1"] });
});

afterEach(async () => {
  await fake.close();
});

function client(token: string | undefined, opts: WebClientOptions = {}): WebClient {
  return new WebClient(token, {
    slackApiUrl: fake.url,
    retryConfig: { retries: 0 },
    logLevel: LogLevel.ERROR,
    ...opts,
  });
}

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("expected the call to fail");
}

async function platformError(promise: Promise<unknown>): Promise<string> {
  const err = await errorOf(promise);
  expect(err).toBeInstanceOf(WebAPIPlatformError);
  return (err as WebAPIPlatformError).data.error;
}

describe("server", () => {
  it("serves the API under a trailing-slash url on 127.0.0.1", () => {
    expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/$/);
  });

  it("records calls with the token's team and JSON fields parsed back into objects", async () => {
    const blocks = [{ type: "section", text: { type: "mrkdwn", text: "*hi*" } }];
    await client("xoxb-acme").chat.postMessage({ channel: "CSTANDUP", text: "hi", blocks });
    const [call] = fake.callsTo("chat.postMessage");
    expect(call).toMatchObject({ method: "chat.postMessage", teamId: "T1", token: "xoxb-acme", ok: true });
    expect(call?.args).toEqual({ channel: "CSTANDUP", text: "hi", blocks });
    expect(call?.at).toBeTypeOf("number");
  });

  it("accepts JSON bodies, GET query strings and a token form field", async () => {
    const json = await fetch(`${fake.url}chat.postMessage`, {
      method: "POST",
      headers: { authorization: "Bearer xoxb-acme", "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({ channel: "CSTANDUP", text: "json", metadata: { event_type: "e", event_payload: {} } }),
    }).then((r) => r.json());
    expect(json).toMatchObject({ ok: true, channel: "CSTANDUP", message: { text: "json" } });

    const get = await fetch(`${fake.url}auth.test?token=xoxb-globex`).then((r) => r.json());
    expect(get).toMatchObject({ ok: true, team_id: "T2" });

    const form = await fetch(`${fake.url}users.info`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "token=xoxb-acme&user=UA1",
    }).then((r) => r.json());
    expect(form).toMatchObject({ ok: true, user: { id: "UA1" } });
    expect(fake.callsTo("users.info")[0]?.args).toEqual({ user: "UA1" });
  });

  it("answers unknown_method and lists the call in unexpected", async () => {
    expect(await platformError(client("xoxb-acme").apiCall("chat.nope", { a: 1 }))).toBe("unknown_method");
    expect(fake.unexpected.map((c) => c.method)).toEqual(["chat.nope"]);
  });

  it("resolves waitFor once a matching call arrives, and times out otherwise", async () => {
    const waiting = fake.waitFor((calls) => calls.some((c) => c.method === "auth.test"));
    await client("xoxb-acme").auth.test();
    expect((await waiting).length).toBe(1);
    await expect(fake.waitFor(() => false, 30)).rejects.toThrow(/timed out/);
  });

  it("reset forgets calls and faults but keeps data", async () => {
    await client("xoxb-acme").chat.postMessage({ channel: "CSTANDUP", text: "kept" });
    fake.fail("auth.test", { error: "fatal_error" });
    fake.reset();
    expect(fake.calls).toEqual([]);
    await expect(client("xoxb-acme").auth.test()).resolves.toMatchObject({ ok: true });
    expect(fake.messages("CSTANDUP").map((m) => m.text)).toEqual(["kept"]);
  });
});

describe("auth and workspaces", () => {
  it("maps each token to its own team", async () => {
    const acme = client("xoxb-acme");
    const globex = client("xoxb-globex");
    expect(await acme.auth.test()).toMatchObject({ team_id: "T1", user_id: "UBOT1", team: "Acme" });
    expect(await globex.auth.test()).toMatchObject({ team_id: "T2", user_id: "UBOT2" });
    expect(await platformError(globex.conversations.info({ channel: "CSTANDUP" }))).toBe("channel_not_found");
    expect(await platformError(globex.users.info({ user: "UA1" }))).toBe("user_not_found");
    expect(await platformError(globex.chat.postMessage({ channel: "CSTANDUP", text: "x" }))).toBe("channel_not_found");
    const members = await globex.users.list({});
    expect(members.members?.map((u) => u.id)).toEqual(["USLACKBOT", "UBOT2", "UG1"]);
    expect(fake.calls.map((c) => c.teamId)).toEqual(["T1", "T2", "T2", "T2", "T2", "T2"]);
  });

  it("rejects unknown, missing and revoked tokens", async () => {
    expect(await platformError(client("xoxb-nope").auth.test())).toBe("invalid_auth");
    expect(await platformError(client(undefined).auth.test())).toBe("invalid_auth");
    fake.revokeToken("xoxb-acme");
    expect(await platformError(client("xoxb-acme").auth.test())).toBe("token_revoked");
    await expect(client("xoxb-globex").auth.test()).resolves.toMatchObject({ ok: true });
  });

  it("answers missing_scope when a team was given explicit scopes", async () => {
    fake.addTeam({ id: "T3", name: "Initech", botToken: "xoxb-initech", scopes: ["chat:write"] });
    const err = await errorOf(client("xoxb-initech").users.list({}));
    expect((err as WebAPIPlatformError).data).toMatchObject({ error: "missing_scope", needed: "users:read" });
  });

  it("exchanges an OAuth code once and installs the team", async () => {
    fake.setOAuthCode("code-1", {
      team: { id: "T9", name: "Hooli" },
      botToken: "xoxb-hooli",
      botUserId: "UBOT9",
      scope: "chat:write,users:read",
      authedUserId: "UADMIN",
      clientId: "cid",
      clientSecret: "secret",
    });
    const anon = client(undefined);
    const args = { client_id: "cid", client_secret: "secret", code: "code-1", redirect_uri: "http://localhost/cb" };
    const res = await anon.oauth.v2.access(args);
    expect(res).toMatchObject({
      ok: true,
      access_token: "xoxb-hooli",
      token_type: "bot",
      scope: "chat:write,users:read",
      bot_user_id: "UBOT9",
      team: { id: "T9", name: "Hooli" },
      enterprise: null,
      authed_user: { id: "UADMIN" },
      is_enterprise_install: false,
    });
    expect(res.app_id).toBeTypeOf("string");
    expect(fake.callsTo("oauth.v2.access")[0]?.teamId).toBe("T9");
    expect(await client("xoxb-hooli").auth.test()).toMatchObject({ team_id: "T9", user_id: "UBOT9" });

    expect(await platformError(anon.oauth.v2.access(args))).toBe("invalid_code");
    expect(await platformError(anon.oauth.v2.access({ ...args, code: "never-issued" }))).toBe("invalid_code");
  });

  it("approves GET /oauth/v2/authorize at once when told how, redirecting back with a one-time code and the state", async () => {
    const base = fake.url.replace(/api\/$/, "");
    const query = "client_id=cid&scope=chat:write,users:read&redirect_uri=http%3A%2F%2Flocalhost%2Fcb&state=s1";
    expect((await fetch(`${base}oauth/v2/authorize?${query}`, { redirect: "manual" })).status).toBe(404);
    fake.onAuthorize(({ scope }) => ({
      team: { id: "T7", name: "Umbrella" },
      botToken: "xoxb-authorized-7",
      botUserId: "UBOT7",
      scope,
      authedUserId: "UADMIN7",
    }));
    try {
      const res = await fetch(`${base}oauth/v2/authorize?${query}`, { redirect: "manual" });
      expect(res.status).toBe(302);
      const back = new URL(res.headers.get("location")!);
      expect(`${back.origin}${back.pathname}`).toBe("http://localhost/cb");
      expect(back.searchParams.get("state")).toBe("s1");
      const args = {
        client_id: "cid",
        client_secret: "x",
        code: back.searchParams.get("code")!,
        redirect_uri: "http://localhost/cb",
      };
      const exchanged = await client(undefined).oauth.v2.access(args);
      expect(exchanged).toMatchObject({
        ok: true,
        access_token: "xoxb-authorized-7",
        scope: "chat:write,users:read",
        team: { id: "T7" },
        authed_user: { id: "UADMIN7" },
      });
      expect(await platformError(client(undefined).oauth.v2.access({ ...args, redirect_uri: "http://evil/cb" }))).toBe(
        "invalid_code",
      );
    } finally {
      fake.onAuthorize(undefined);
    }
  });

  it("accepts client credentials by HTTP basic auth and checks them", async () => {
    const grant = { team: { id: "T8", name: "Pied" }, botToken: "xoxb-pied", botUserId: "UB8", scope: "chat:write" };
    fake.setOAuthCode("code-2", { ...grant, authedUserId: "U8", clientId: "cid", clientSecret: "secret" });
    const exchange = (secret: string) =>
      fetch(`${fake.url}oauth.v2.access`, {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`cid:${secret}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "code=code-2",
      }).then((r) => r.json());
    expect(await exchange("wrong")).toEqual({ ok: false, error: "bad_client_secret" });
    expect(await exchange("secret")).toMatchObject({ ok: true, access_token: "xoxb-pied" });
  });
});

describe("users", () => {
  it("pages users.list with limit and cursor", async () => {
    const web = client("xoxb-acme");
    const pages: string[][] = [];
    for await (const page of web.paginate("users.list", { limit: 3 })) {
      pages.push(((page as UsersListResponse).members ?? []).map((u) => u.id as string));
    }
    expect(pages).toEqual([["USLACKBOT", "UBOT1", "UA1"], ["UA2", "UA3", "UA4"], ["UA5"]]);
    const cursors = fake.callsTo("users.list").map((c) => c.args.cursor);
    expect(cursors[0]).toBeUndefined();
    expect(cursors.slice(1).every((c) => typeof c === "string" && c !== "")).toBe(true);

    const last = await web.users.list({ limit: 3, cursor: cursors[2] as string });
    expect(last.response_metadata?.next_cursor).toBe("");
    expect(await platformError(web.users.list({ cursor: "garbage" }))).toBe("invalid_cursor");
  });

  it("returns Slack's user shape, with Slackbot and the bot user", async () => {
    const { members = [] } = await client("xoxb-globex").users.list({});
    const [slackbot, bot, user] = members;
    expect(slackbot).toMatchObject({ id: "USLACKBOT", is_bot: false, deleted: false });
    expect(bot).toMatchObject({ id: "UBOT2", is_bot: true });
    expect(user).toMatchObject({
      id: "UG1",
      team_id: "T2",
      name: "g1",
      real_name: "Globex 1",
      tz: "Europe/Berlin",
      deleted: false,
      is_bot: false,
      is_admin: false,
      is_owner: false,
      is_app_user: false,
      profile: { real_name: "Globex 1", display_name: "" },
    });
    expect([3600, 7200]).toContain(user?.tz_offset);
    expect(user?.profile?.image_72).toMatch(/^http:\/\/127\.0\.0\.1:/);
  });
});

describe("conversations", () => {
  it("lists channels by type, hides private channels the bot is not in, and honours exclude_archived", async () => {
    const web = client("xoxb-acme");
    const ids = async (args: Record<string, unknown>) =>
      ((await web.conversations.list(args)).channels ?? []).map((c) => c.id);
    expect(await ids({})).toEqual(["CSTANDUP", "COLD"]);
    expect(await ids({ exclude_archived: true })).toEqual(["CSTANDUP"]);
    expect(await ids({ types: "private_channel" })).toEqual(["GSECRET"]);
    expect(await ids({ types: "public_channel,private_channel", exclude_archived: true })).toEqual([
      "CSTANDUP",
      "GSECRET",
    ]);
    const paged = await web.conversations.list({ limit: 1 });
    expect(paged.channels?.map((c) => c.id)).toEqual(["CSTANDUP"]);
    expect(paged.response_metadata?.next_cursor).not.toBe("");
    expect(await platformError(web.conversations.info({ channel: "GHIDDEN" }))).toBe("channel_not_found");
  });

  it("pages conversations.members", async () => {
    const web = client("xoxb-acme");
    const first = await web.conversations.members({ channel: "CSTANDUP", limit: 2 });
    expect(first.members).toEqual(["UBOT1", "UA1"]);
    const second = await web.conversations.members({
      channel: "CSTANDUP",
      limit: 2,
      cursor: first.response_metadata?.next_cursor,
    });
    expect(second.members).toEqual(["UA2"]);
    expect(second.response_metadata?.next_cursor).toBe("");
  });

  it("joins the bot to a public channel once, and refuses what Slack refuses", async () => {
    fake.addChannel("T1", { id: "COPEN", name: "open", members: ["UA1"] });
    const web = client("xoxb-acme");
    const joined = await web.conversations.join({ channel: "COPEN" });
    expect(joined.channel).toMatchObject({ id: "COPEN", is_member: true });
    expect(joined.warning).toBeUndefined();
    expect(fake.channelMembers("T1", "COPEN")).toEqual(["UA1", "UBOT1"]);
    const again = await web.conversations.join({ channel: "COPEN" });
    expect(again).toMatchObject({ ok: true, warning: "already_in_channel" });
    expect(fake.channelMembers("T1", "COPEN")).toEqual(["UA1", "UBOT1"]);

    expect(await platformError(web.conversations.join({ channel: "COLD" }))).toBe("is_archived");
    expect(await platformError(web.conversations.join({ channel: "GSECRET" }))).toBe(
      "method_not_supported_for_channel_type",
    );
    expect(await platformError(web.conversations.join({ channel: "GHIDDEN" }))).toBe("channel_not_found");
    // Another workspace's channel does not exist for this token.
    expect(await platformError(web.conversations.join({ channel: "CGLOBEX" }))).toBe("channel_not_found");
    expect(await platformError(web.conversations.info({ channel: "CGLOBEX" }))).toBe("channel_not_found");

    fake.addTeam({ id: "T3", name: "Initech", botToken: "xoxb-initech", botUserId: "UBOT3", scopes: "channels:read" });
    fake.addChannel("T3", { id: "CINIT", name: "general", members: [] });
    expect(await platformError(client("xoxb-initech").conversations.join({ channel: "CINIT" }))).toBe("missing_scope");
    expect(fake.channelMembers("T3", "CINIT")).toEqual([]);
  });

  it("opens one stable DM per user", async () => {
    const web = client("xoxb-acme");
    const first = await web.conversations.open({ users: "UA3" });
    const again = await web.conversations.open({ users: "UA3" });
    const other = await web.conversations.open({ users: "UA4" });
    expect(first.channel?.id).toMatch(/^D/);
    expect(again).toMatchObject({ no_op: true, already_open: true, channel: { id: first.channel?.id } });
    expect(other.channel?.id).not.toBe(first.channel?.id);
    expect(fake.dmFor("T1", "UA3")).toBe(first.channel?.id);
    expect(await platformError(web.conversations.open({ users: "UNOBODY" }))).toBe("user_not_found");
  });
});

describe("messages", () => {
  it("posts, threads, updates and reads back history newest first", async () => {
    const web = client("xoxb-acme");
    const a = await web.chat.postMessage({ channel: "CSTANDUP", text: "first" });
    const b = await web.chat.postMessage({
      channel: "CSTANDUP",
      text: "second",
      blocks: [{ type: "section", text: { type: "plain_text", text: "second" } }],
      metadata: { event_type: "standup_posted", event_payload: { run: 7 } },
    });
    const reply = await web.chat.postMessage({ channel: "CSTANDUP", text: "reply", thread_ts: a.ts });
    const c = await web.chat.postMessage({ channel: "CSTANDUP", text: "third" });
    expect(b).toMatchObject({
      ok: true,
      channel: "CSTANDUP",
      message: { text: "second", blocks: [{ type: "section" }], metadata: { event_type: "standup_posted" } },
    });
    expect(reply.message).toMatchObject({ text: "reply", thread_ts: a.ts });
    const stamps = [a.ts, b.ts, reply.ts, c.ts] as string[];
    expect(stamps.every((ts) => /^\d{10}\.\d{6}$/.test(ts))).toBe(true);
    expect([...stamps].sort((x, y) => Number(x) - Number(y))).toEqual(stamps);
    expect(new Set(stamps).size).toBe(4);

    const updated = await web.chat.update({ channel: "CSTANDUP", ts: b.ts as string, text: "second (edited)" });
    expect(updated).toMatchObject({ ok: true, channel: "CSTANDUP", ts: b.ts, text: "second (edited)" });

    const page1 = await web.conversations.history({ channel: "CSTANDUP", limit: 2 });
    expect(page1.messages?.map((m) => m.text)).toEqual(["third", "second (edited)"]);
    expect(page1.messages?.[1]?.blocks).toHaveLength(1);
    expect(page1.messages?.[1]?.metadata).toBeUndefined();
    expect(page1.has_more).toBe(true);
    const page2 = await web.conversations.history({
      channel: "CSTANDUP",
      limit: 2,
      cursor: page1.response_metadata?.next_cursor,
    });
    expect(page2.messages?.map((m) => m.text)).toEqual(["first"]);
    expect(page2.messages?.[0]).toMatchObject({ reply_count: 1, thread_ts: a.ts });
    expect(page2.response_metadata?.next_cursor).toBe("");

    const thread = await web.conversations.replies({ channel: "CSTANDUP", ts: a.ts as string });
    expect(thread.messages?.map((m) => m.text)).toEqual(["first", "reply"]);

    expect(fake.messages("CSTANDUP").map((m) => [m.text, m.thread_ts])).toEqual([
      ["first", undefined],
      ["second (edited)", undefined],
      ["reply", a.ts],
      ["third", undefined],
    ]);
    expect(fake.messages("CSTANDUP")[1]?.edited?.user).toBe("UBOT1");
  });

  it("posts to a user id through the bot's DM", async () => {
    const res = await client("xoxb-acme").chat.postMessage({ channel: "UA5", text: "your standup" });
    expect(res.channel).toBe(fake.dmFor("T1", "UA5"));
    expect(fake.messages(res.channel)).toEqual([
      {
        teamId: "T1",
        channel: res.channel,
        ts: res.ts,
        text: "your standup",
        user: "UBOT1",
        bot_id: "B1",
        reactions: [],
      },
    ]);
  });

  it("answers Slack's errors without storing anything", async () => {
    const web = client("xoxb-acme");
    expect(await platformError(web.chat.postMessage({ channel: "COLD", text: "x" }))).toBe("is_archived");
    expect(await platformError(web.chat.postMessage({ channel: "CNOPE", text: "x" }))).toBe("channel_not_found");
    expect(await platformError(web.chat.postMessage({ channel: "CSTANDUP", text: "" }))).toBe("no_text");
    expect(await platformError(web.chat.update({ channel: "CSTANDUP", ts: "1.000001", text: "x" }))).toBe(
      "message_not_found",
    );
    expect(fake.messages()).toEqual([]);
    expect(fake.calls.every((c) => !c.ok && c.error)).toBe(true);
  });

  it("deletes, reacts and posts ephemerals", async () => {
    const web = client("xoxb-acme");
    const posted = await web.chat.postMessage({ channel: "GSECRET", text: "private" });
    await web.reactions.add({ channel: "GSECRET", timestamp: posted.ts as string, name: "tada" });
    expect(fake.messages("GSECRET")[0]?.reactions).toEqual([{ name: "tada", users: ["UBOT1"], count: 1 }]);
    const eph = await web.chat.postEphemeral({ channel: "GSECRET", user: "UA1", text: "only you" });
    expect(fake.ephemerals("GSECRET")).toMatchObject([{ user: "UA1", text: "only you", ts: eph.message_ts }]);
    expect(await platformError(web.chat.postEphemeral({ channel: "GSECRET", user: "UA2", text: "x" }))).toBe(
      "user_not_in_channel",
    );
    await web.chat.delete({ channel: "GSECRET", ts: posted.ts as string });
    expect(fake.messages("GSECRET")).toEqual([]);
  });
});

describe("views", () => {
  it("opens, updates and publishes views", async () => {
    const web = client("xoxb-acme");
    const modal = { type: "modal" as const, title: { type: "plain_text" as const, text: "Standup" }, blocks: [] };
    const opened = await web.views.open({ trigger_id: "123.456.abc", view: modal });
    const id = opened.view?.id as string;
    expect(opened.view).toMatchObject({ type: "modal", team_id: "T1", title: { text: "Standup" } });
    expect(fake.callsTo("views.open")[0]?.args.view).toEqual(modal);

    const updated = await web.views.update({ view_id: id, hash: opened.view?.hash, view: { ...modal, blocks: [] } });
    expect(updated.view?.hash).not.toBe(opened.view?.hash);
    expect(await platformError(web.views.update({ view_id: id, hash: opened.view?.hash, view: modal }))).toBe(
      "hash_conflict",
    );

    const home = { type: "home" as const, blocks: [{ type: "divider" as const }] };
    const published = await web.views.publish({ user_id: "UA1", view: home });
    expect(fake.homeView("T1", "UA1")?.id).toBe(published.view?.id);
    expect(fake.view(id)?.via).toBe("views.open");
  });
});

describe("faults", () => {
  it("answers 429 with Retry-After and changes nothing", async () => {
    fake.fail("chat.postMessage", { status: 429, retryAfter: 7 });
    const web = client("xoxb-acme", { rejectRateLimitedCalls: true });
    const err = await errorOf(web.chat.postMessage({ channel: "CSTANDUP", text: "x" }));
    expect(err).toBeInstanceOf(WebAPIRateLimitedError);
    expect((err as WebAPIRateLimitedError).code).toBe(ErrorCode.RateLimitedError);
    expect((err as WebAPIRateLimitedError).retryAfter).toBe(7);
    expect(fake.messages()).toEqual([]);
    expect(fake.callsTo("chat.postMessage")[0]).toMatchObject({ faulted: true, ok: false, error: "ratelimited" });

    await web.chat.postMessage({ channel: "CSTANDUP", text: "after" });
    expect(fake.messages().map((m) => m.text)).toEqual(["after"]);
  });

  it("sends the 429 body Slack sends", async () => {
    fake.fail("auth.test", { status: 429 });
    const res = await fetch(`${fake.url}auth.test`, { method: "POST", headers: { authorization: "Bearer xoxb-acme" } });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await res.json()).toEqual({ ok: false, error: "ratelimited" });
  });

  it("surfaces HTTP 500 and dropped connections as errors, in queued order", async () => {
    fake.fail("auth.test", { status: 500 });
    fake.fail("auth.test", { drop: true }, 2);
    fake.fail("auth.test", { error: "channel_not_found" });
    const web = client("xoxb-acme");
    const http = await errorOf(web.auth.test());
    expect(http).toBeInstanceOf(WebAPIHTTPError);
    expect((http as WebAPIHTTPError).statusCode).toBe(500);
    expect(await errorOf(web.auth.test())).toBeInstanceOf(WebAPIRequestError);
    expect(await errorOf(web.auth.test())).toBeInstanceOf(WebAPIRequestError);
    expect(await platformError(web.auth.test())).toBe("channel_not_found");
    await expect(web.auth.test()).resolves.toMatchObject({ ok: true });
    expect(fake.callsTo("auth.test").map((c) => c.error ?? "ok")).toEqual([
      "http_500",
      "connection_dropped",
      "connection_dropped",
      "channel_not_found",
      "ok",
    ]);
  });

  it("lets a retrying WebClient recover from a dropped connection", async () => {
    fake.fail("chat.postMessage", { drop: true });
    const web = client("xoxb-acme", { retryConfig: { retries: 1, minTimeout: 0, maxTimeout: 0 } });
    await web.chat.postMessage({ channel: "CSTANDUP", text: "once" });
    expect(fake.messages().map((m) => m.text)).toEqual(["once"]);
    expect(fake.callsTo("chat.postMessage").map((c) => c.ok)).toEqual([false, true]);
  });

  it("answers a delayed call late, and still posts it when the client has gone away meanwhile", async () => {
    fake.fail("chat.postMessage", { delayMs: 300 }, 2);
    const web = client("xoxb-acme");
    const started = Date.now();
    await web.chat.postMessage({ channel: "CSTANDUP", text: "slow" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(fake.callsTo("chat.postMessage")[0]).toMatchObject({ ok: true });
    expect(fake.callsTo("chat.postMessage")[0]?.faulted).toBeUndefined();

    // The client gives up (a timeout, or its process dies) while the call waits: Slack acts on it all the same.
    const gone = client("xoxb-acme", { timeout: 50 });
    await expect(gone.chat.postMessage({ channel: "CSTANDUP", text: "abandoned" })).rejects.toThrow();
    expect(fake.messages().map((m) => m.text)).toEqual(["slow"]);
    await fake.waitFor((calls) => calls.length === 2, 2_000);
    expect(fake.messages().map((m) => m.text)).toEqual(["slow", "abandoned"]);
  });

  it("makes random faults reproducible by seed", async () => {
    const web = client("xoxb-acme");
    const pattern = async (seed: number) => {
      fake.reset();
      fake.setRandomFaults({ method: "chat.postMessage", ratio: 0.3, fault: { error: "fatal_error" }, seed });
      const outcome: boolean[] = [];
      for (let i = 0; i < 40; i++) {
        const sent = web.chat.postMessage({ channel: "CSTANDUP", text: `m${i}` });
        outcome.push(
          await sent.then(
            () => true,
            () => false,
          ),
        );
      }
      await web.auth.test();
      return outcome;
    };
    const first = await pattern(42);
    const again = await pattern(42);
    const other = await pattern(7);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    const failures = first.filter((ok) => !ok).length;
    expect(failures).toBeGreaterThan(4);
    expect(failures).toBeLessThan(24);
    expect(fake.callsTo("auth.test")[0]?.ok).toBe(true);

    fake.setRandomFaults(null);
    await expect(web.chat.postMessage({ channel: "CSTANDUP", text: "calm" })).resolves.toMatchObject({ ok: true });
  });
});
