import { LogLevel, WebAPIPlatformError, WebClient } from "@slack/web-api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { type FakeSlack, startFakeSlack } from "./index.ts";

let fake: FakeSlack;
const opened: WebSocket[] = [];

beforeEach(async () => {
  fake = await startFakeSlack();
  fake.addTeam({ id: "T1", name: "Acme", botToken: "xoxb-acme", botUserId: "UBOT1" });
});

afterEach(async () => {
  for (const ws of opened.splice(0)) ws.terminate();
  await fake.close();
});

function api(token?: string) {
  return new WebClient(token, { slackApiUrl: fake.url, retryConfig: { retries: 0 }, logLevel: LogLevel.ERROR });
}

async function openUrl(token = "xapp-1-A1-secret"): Promise<string> {
  const res = await api(token).apps.connections.open();
  return res.url as string;
}

/** A raw client that keeps every message it gets. */
async function connect(url?: string): Promise<{ ws: WebSocket; messages: Record<string, unknown>[] }> {
  const ws = new WebSocket(url ?? (await openUrl()));
  opened.push(ws);
  const messages: Record<string, unknown>[] = [];
  ws.on("message", (data) => messages.push(JSON.parse(data.toString()) as Record<string, unknown>));
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  await until(() => messages.length > 0);
  return { ws, messages };
}

async function until(predicate: () => boolean, timeoutMs = 3_000): Promise<void> {
  for (let waited = 0; !predicate(); waited += 10) {
    if (waited > timeoutMs) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function refusedWith(url: string): Promise<number> {
  const ws = new WebSocket(url);
  ws.on("error", () => {});
  return new Promise((resolve) => {
    ws.once("unexpected-response", (req, res) => {
      req.destroy();
      resolve(res.statusCode ?? 0);
    });
    ws.once("open", () => {
      opened.push(ws);
      resolve(101);
    });
  });
}

async function platformError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(WebAPIPlatformError);
    return (err as WebAPIPlatformError).data.error;
  }
  throw new Error("expected the call to fail");
}

describe("apps.connections.open", () => {
  it("answers an app token with a one-use WebSocket URL on the fake's own server", async () => {
    const url = await openUrl();
    expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/link\/\?ticket=[\w-]+&app_id=A0FAKEUPBEAT$/);
    const { messages } = await connect(url);
    expect(messages[0]).toMatchObject({
      type: "hello",
      num_connections: 1,
      connection_info: { app_id: "A0FAKEUPBEAT" },
    });
    expect(messages[0]?.debug_info).toMatchObject({ host: expect.any(String), approximate_connection_time: 18060 });
    expect(await refusedWith(url)).toBe(401);
  });

  it("refuses other tokens as Slack does", async () => {
    expect(await platformError(api().apps.connections.open())).toBe("not_authed");
    expect(await platformError(api("xoxb-acme").apps.connections.open())).toBe("not_allowed_token_type");
    expect(await platformError(api("nonsense").apps.connections.open())).toBe("invalid_auth");
    fake.socket.refuseAppToken("xapp-revoked");
    expect(await platformError(api("xapp-revoked").apps.connections.open())).toBe("invalid_auth");
  });
});

describe("envelopes", () => {
  it("sends an events_api envelope and resolves with the ack and its payload", async () => {
    const { ws, messages } = await connect();
    const acked = fake.socket.sendEvent("T1", { type: "app_mention", user: "U1", text: "hi" }, { eventId: "Ev1" });
    await until(() => messages.length === 2);
    const envelope = messages[1] as Record<string, unknown>;
    expect(envelope).toMatchObject({
      type: "events_api",
      accepts_response_payload: false,
      retry_attempt: 0,
      retry_reason: "",
      payload: { type: "event_callback", team_id: "T1", event_id: "Ev1", event: { type: "app_mention" } },
    });
    expect(envelope.envelope_id).toEqual(expect.any(String));
    ws.send(JSON.stringify({ envelope_id: envelope.envelope_id }));
    expect(await acked).toMatchObject({ envelopeId: envelope.envelope_id, payload: {}, attempt: 0 });
  });

  it("a slash command's ack carries the response payload", async () => {
    const { ws, messages } = await connect();
    const acked = fake.socket.sendCommand("T1", "U1", "help");
    await until(() => messages.length === 2);
    const envelope = messages[1] as { envelope_id: string; payload: Record<string, unknown> };
    expect(envelope).toMatchObject({ type: "slash_commands", accepts_response_payload: true });
    expect(envelope.payload).toMatchObject({ command: "/upbeat", text: "help", team_id: "T1", user_id: "U1" });
    expect(envelope).not.toHaveProperty("retry_attempt");
    ws.send(JSON.stringify({ envelope_id: envelope.envelope_id, payload: { text: "Usage" } }));
    expect((await acked)?.payload).toEqual({ text: "Usage" });
  });

  it("redelivers an unacknowledged event with retry_attempt + 1 and reason timeout", async () => {
    fake.socket.configure({ ackTimeoutMs: 100, maxRetries: 2 });
    const { ws, messages } = await connect();
    const acked = fake.socket.sendEvent("T1", { type: "app_mention" });
    await until(() => messages.length === 3);
    const [first, retry] = messages.slice(1) as Record<string, unknown>[];
    expect(retry).toMatchObject({ envelope_id: first?.envelope_id, retry_attempt: 1, retry_reason: "timeout" });
    expect(retry?.payload).toEqual(first?.payload);
    ws.send(JSON.stringify({ envelope_id: first?.envelope_id }));
    expect(await acked).toMatchObject({ attempt: 1 });
  });

  it("a lost ack leaves the envelope to time out and be redelivered", async () => {
    fake.socket.configure({ ackTimeoutMs: 100 });
    const { ws, messages } = await connect();
    fake.socket.loseNextAcks(1);
    const acked = fake.socket.sendEvent("T1", { type: "app_mention" });
    await until(() => messages.length === 2);
    ws.send(JSON.stringify({ envelope_id: messages[1]?.envelope_id }));
    await until(() => messages.length === 3);
    expect(messages[2]).toMatchObject({ retry_attempt: 1, retry_reason: "timeout" });
    ws.send(JSON.stringify({ envelope_id: messages[2]?.envelope_id }));
    expect(await acked).toMatchObject({ attempt: 1 });
  });

  it("gives up after the last retry, and never retries a command or interaction", async () => {
    fake.socket.configure({ ackTimeoutMs: 50, maxRetries: 1 });
    const { messages } = await connect();
    const event = fake.socket.deliver("events_api", { type: "event_callback", event: {} });
    expect(await event.acked).toBeUndefined();
    expect(event.attempts).toBe(2);
    const view = fake.socket.sendInteraction({ type: "view_submission", team: { id: "T1" } });
    expect(await view).toBeUndefined();
    const interactive = messages.filter((m) => m.type === "interactive");
    expect(interactive).toHaveLength(1);
    expect(interactive[0]?.accepts_response_payload).toBe(true);
  });

  it("spreads envelopes across the open connections and holds them while none is open", async () => {
    const a = await connect();
    const b = await connect();
    expect(b.messages[0]).toMatchObject({ num_connections: 2 });
    for (let i = 0; i < 4; i++) fake.socket.deliver("events_api", { event_id: `Ev${i}` });
    await until(() => a.messages.length + b.messages.length === 6);
    expect(a.messages).toHaveLength(3);
    expect(b.messages).toHaveLength(3);

    fake.socket.drop();
    await until(() => fake.socket.openConnections === 0);
    const held = fake.socket.deliver("events_api", { event_id: "EvHeld" });
    const c = await connect();
    await until(() => c.messages.length === 2);
    c.ws.send(JSON.stringify({ envelope_id: held.envelopeId }));
    expect(await held.acked).toMatchObject({ attempt: 0 });
  });
});

describe("connections", () => {
  it("disconnect sends the reason, then closes after the grace period", async () => {
    const { ws, messages } = await connect();
    const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
    fake.socket.disconnect("refresh_requested", { graceMs: 100 });
    await until(() => messages.length === 2);
    expect(messages[1]).toMatchObject({ type: "disconnect", reason: "refresh_requested" });
    expect(fake.socket.openConnections).toBe(1);
    expect(await closed).toBe(1000);
    await fake.socket.waitForConnections(0);
    expect(fake.socket.history).toEqual([
      { event: "open", connectionId: 1 },
      { event: "close", connectionId: 1 },
    ]);
  });

  it("drop cuts a connection without a close frame", async () => {
    const { ws } = await connect();
    const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
    fake.socket.drop();
    expect(await closed).toBe(1006);
  });

  it("refuses new connections for a while", async () => {
    fake.socket.refuseConnections(150);
    expect(await refusedWith(await openUrl())).toBe(503);
    await new Promise((r) => setTimeout(r, 200));
    await connect();
    expect(fake.socket.openConnections).toBe(1);
  });
});
