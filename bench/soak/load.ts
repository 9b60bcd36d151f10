/**
 * The steady part of the soak's load: at a fixed rate (open loop), requests drawn by weight from dashboard
 * reads, Slack event deliveries (and Slack's retries of them), slash commands and MCP tool calls, spread over
 * the workspaces, their admin sessions and MCP keys. DM answers and runs come on top (answers.ts, runs.ts).
 */
import { eventId } from "../../dev/slack-signing.ts";
import { type AppClient, type Check, expectStatus, type Request } from "./stats.ts";
import { commandRequest, eventRequest, messageTs, type Team, userChangeEvent } from "./world.ts";

export interface LoadContext {
  readonly teams: Team[];
  readonly client: AppClient;
  readonly random: () => number;
  /** The seeded schedule of each team (for the schedule_id filter). */
  readonly seededScheduleOf: Map<string, string>;
}

/** Share of the steady rate per request kind (they add up to 100). */
export const MIX = {
  dashboard: 45,
  events: 30,
  commands: 5,
  mcp: 20,
} as const;

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

// ---------------------------------------------------------------------------------------------- dashboard

const isJson: (text: string) => string | undefined = (text) => {
  try {
    JSON.parse(text);
    return undefined;
  } catch {
    return "body is not JSON";
  }
};

/** Dashboard reads as the pages make them: [route label, path] by weight. */
function dashboardPaths(ctx: LoadContext, team: Team): [string, string, number][] {
  const r = ctx.random;
  const someone = pick(r, team.people).userId;
  const seeded = ctx.seededScheduleOf.get(team.id) ?? "";
  return [
    ["GET /dashboard/api/stats", "/dashboard/api/stats", 10],
    ["GET /dashboard/api/stats", `/dashboard/api/stats?schedule_id=${seeded}`, 3],
    ["GET /dashboard/api/today", "/dashboard/api/today", 8],
    ["GET /dashboard/api/reports", "/dashboard/api/reports?days=30", 6],
    ["GET /dashboard/api/reports", `/dashboard/api/reports?days=7&user_id=${someone}`, 3],
    ["GET /dashboard/api/reports", `/dashboard/api/reports?days=30&q=${pick(r, SEARCH_WORDS)}`, 2],
    ["GET /dashboard/api/analytics", "/dashboard/api/analytics?days=30", 4],
    ["GET /dashboard/api/analytics", `/dashboard/api/analytics?days=7&schedule_id=${seeded}`, 2],
    ["GET /dashboard/api/members", "/dashboard/api/members", 5],
    ["GET /dashboard/api/standups", "/dashboard/api/standups", 6],
    ["GET /dashboard/api/channels", "/dashboard/api/channels", 2],
    ["GET /dashboard/api/me", "/dashboard/api/me", 4],
    ["GET /dashboard/api/mcp/keys", "/dashboard/api/mcp/keys", 1],
    ["GET /dashboard/api/export/csv", "/dashboard/api/export/csv", 1],
  ];
}

function weighted<T extends readonly unknown[]>(random: () => number, list: T[], weightAt: number): T {
  const total = list.reduce((n, item) => n + (item[weightAt] as number), 0);
  let x = random() * total;
  for (const item of list) {
    x -= item[weightAt] as number;
    if (x < 0) return item;
  }
  return list[list.length - 1]!;
}

function dashboardRead(ctx: LoadContext): Promise<unknown> {
  const team = pick(ctx.random, ctx.teams);
  const [route, path] = weighted(ctx.random, dashboardPaths(ctx, team), 2);
  const cookie = pick(ctx.random, team.cookies);
  const check = route.endsWith("/csv") ? expectStatus(200) : expectStatus(200, isJson);
  return ctx.client.send(route, { method: "GET", path, headers: { cookie } }, check);
}

// ---------------------------------------------------------------------------------------------- events

interface SentEvent {
  teamId: string;
  event: Record<string, unknown>;
  eventId: string;
}

/** The last deliveries, for Slack-style retries (same event id, X-Slack-Retry-Num 1–3). */
const RETRY_POOL = 500;
const sentEvents: SentEvent[] = [];

/** Sends a first delivery of an event (kept for later retries); expected answer: 200. */
export function deliverEvent(client: AppClient, route: string, teamId: string, event: Record<string, unknown>) {
  const sent = { teamId, event, eventId: eventId() };
  if (sentEvents.length >= RETRY_POOL) sentEvents.splice(0, sentEvents.length - RETRY_POOL + 1);
  sentEvents.push(sent);
  return client.send(route, eventRequest(teamId, event, sent.eventId), expectStatus(200));
}

function slackEvent(ctx: LoadContext): Promise<unknown> {
  const r = ctx.random;
  const team = pick(r, ctx.teams);
  const person = pick(r, team.people);
  const channel = pick(r, team.channels);
  const x = r() * 100;
  if (x < 30) {
    const event = { type: "app_home_opened", user: person.userId, channel: team.dmOf.get(person.userId), tab: "home" };
    return deliverEvent(ctx.client, "POST /chat/events app_home_opened", team.id, event);
  }
  if (x < 60) {
    const text = `${pick(r, SEARCH_WORDS)} update, see the thread`;
    const event = { type: "message", channel: channel.id, channel_type: "channel", user: person.userId, text };
    return deliverEvent(ctx.client, "POST /chat/events message (channel)", team.id, { ...event, ts: messageTs() });
  }
  if (x < 75) {
    const event = {
      type: "reaction_added",
      user: person.userId,
      reaction: pick(r, ["thumbsup", "tada", "eyes", "white_check_mark"]),
      item: { type: "message", channel: channel.id, ts: messageTs() },
    };
    return deliverEvent(ctx.client, "POST /chat/events reaction_added", team.id, event);
  }
  if (x < 80) {
    return deliverEvent(ctx.client, "POST /chat/events user_change", team.id, userChangeEvent(team.id, person));
  }
  // Slack redelivers when an answer is late or lost: the same event id, which the app must process once.
  const earlier = sentEvents.length > 0 ? pick(r, sentEvents) : undefined;
  if (!earlier)
    return deliverEvent(ctx.client, "POST /chat/events user_change", team.id, userChangeEvent(team.id, person));
  const retry = eventRequest(earlier.teamId, earlier.event, earlier.eventId, 1 + Math.floor(r() * 3));
  return ctx.client.send("POST /chat/events (retry)", retry, expectStatus(200));
}

// ---------------------------------------------------------------------------------------------- commands

function slashCommand(ctx: LoadContext): Promise<unknown> {
  const team = pick(ctx.random, ctx.teams);
  const person = pick(ctx.random, team.people);
  const text = ctx.random() < 0.8 ? "help" : "profile";
  // `help` answers in the acknowledgement; `profile` acknowledges empty and opens a modal with the trigger.
  const check: Check =
    text === "help"
      ? expectStatus(200, (body) => (body.includes("ephemeral") ? undefined : "no ephemeral answer"))
      : expectStatus(200, (body) => (body === "" ? undefined : "profile: not an empty acknowledgement"));
  return ctx.client.send("POST /chat/commands", commandRequest(team.id, person.userId, text), check);
}

// ---------------------------------------------------------------------------------------------- MCP

const SEARCH_WORDS = ["billing", "CI", "review", "staging", "onboarding", "export", "release", "design"];

function mcpCall(ctx: LoadContext): Promise<unknown> {
  const r = ctx.random;
  const team = pick(r, ctx.teams);
  const someone = pick(r, team.people).userId;
  const [name, args] = pick<[string, Record<string, unknown>]>(r, [
    ["get_workspace_summary", {}],
    ["get_today_standups", {}],
    ["get_standups", {}],
    ["get_standups", { user_id: someone }],
    ["get_blockers", { days: 14 }],
    ["search_standups", { query: pick(r, SEARCH_WORDS), days: 30 }],
    ["get_participation", { days: 7 }],
    ["get_members", {}],
    ["get_mood_summary", {}],
  ]);
  const id = Math.floor(r() * 1e9);
  const req: Request = {
    method: "POST",
    path: "/mcp",
    headers: {
      authorization: `Bearer ${pick(r, team.mcpKeys)}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } }),
  };
  const check: Check = expectStatus(200, (text) => {
    try {
      const body = JSON.parse(text) as { id?: unknown; error?: { message?: string }; result?: { isError?: boolean } };
      if (body.error) return `JSON-RPC error ${body.error.message ?? ""}`.trim();
      if (body.id !== id) return "answer to another request id";
      if (body.result?.isError) return "tool error";
      return undefined;
    } catch {
      return "body is not JSON";
    }
  });
  return ctx.client.send(`POST /mcp ${name}`, req, check);
}

// ---------------------------------------------------------------------------------------------- the loop

/** One request of the mix. */
export function fireOne(ctx: LoadContext): void {
  const x = ctx.random() * 100;
  const kind =
    x < MIX.dashboard
      ? dashboardRead
      : x < MIX.dashboard + MIX.events
        ? slackEvent
        : x < MIX.dashboard + MIX.events + MIX.commands
          ? slashCommand
          : mcpCall;
  void kind(ctx);
}

/**
 * Sends `rate` requests a second, evenly spaced, without waiting for answers (a slow app gets more in flight,
 * up to AppClient's cap). Returns stop().
 */
export function startSteadyLoad(ctx: LoadContext, rate: number): () => void {
  const started = performance.now();
  let sent = 0;
  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - started) * rate) / 1000);
    // After a stall (a GC pause in this process) catch up, but never with more than a second's worth.
    if (due - sent > rate) sent = due - rate;
    for (; sent < due; sent++) fireOne(ctx);
  }, 10);
  return () => clearInterval(timer);
}
