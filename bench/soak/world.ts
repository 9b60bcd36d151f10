/**
 * The soak's workspaces: seeded history in the database (bench/seed), the same people and channels in the
 * fake Slack, and the signed requests Slack would send for them (events, slash commands, interactions).
 */
import pg from "pg";
import type { FakeSlack } from "../../dev/fake-slack/index.ts";
import { eventEnvelope, interactionForm, sign, slashCommandForm } from "../../dev/slack-signing.ts";
import type { SlackPerson } from "../../src/features/members/index.ts";
import { deriveKey, encryptSecret } from "../../src/lib/crypto.ts";
import { benchMembers } from "../seed/generate.ts";
import { BENCH_SESSION_SECRET_KEY, BENCH_SIGNING_SECRET } from "../seed/harness.ts";
import { seedWorkspace } from "../seed/seed.ts";
import type { Request } from "./stats.ts";

/** seedWorkspace's bot user and standup channel (the seeded 09:00 schedule posts there). */
const BOT_USER_ID = "B0BENCHBOT";
const SEEDED_CHANNEL = "C0BENCH1";

export interface Channel {
  id: string;
  name: string;
  members: string[];
}

export interface Team {
  id: string;
  name: string;
  token: string;
  adminUserId: string;
  people: SlackPerson[];
  /** The channels the run driver rotates through (the seeded one is left to its 09:00 schedule). */
  soakChannels: Channel[];
  /** Every channel, the seeded one included. */
  channels: Channel[];
  /** The bot's DM channel with each member. */
  dmOf: Map<string, string>;
  /** Dashboard session cookies and MCP keys, filled in by run.ts. */
  cookies: string[];
  mcpKeys: string[];
}

export interface SeedSummary {
  runs: number;
  participants: number;
  responses: number;
}

/**
 * Seeds `count` workspaces of `members` members with history from fromDate to toDate (through the features,
 * bench/seed/seed.ts) and adds the same people, channels and bot tokens to the fake.
 */
async function pointHistoryAtDms(url: string, teamId: string, dmOf: Map<string, string>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `update run_participants p set dm_channel = d.dm
       from unnest($1::text[], $2::text[]) as d(user_id, dm)
       where p.team_id = $3 and p.user_id = d.user_id`,
      [[...dmOf.keys()], [...dmOf.values()], teamId],
    );
  } finally {
    await client.end();
  }
}

export async function seedTeams(
  url: string,
  fake: FakeSlack,
  opts: { count: number; members: number; fromDate: string; toDate: string; log: (line: string) => void },
): Promise<{ teams: Team[]; seeded: SeedSummary }> {
  const key = deriveKey(BENCH_SESSION_SECRET_KEY, "token-encryption");
  const teams: Team[] = [];
  const seeded: SeedSummary = { runs: 0, participants: 0, responses: 0 };
  for (let k = 1; k <= opts.count; k++) {
    const id = `T0SOAK${k}`;
    const token = `xoxb-soak-${k}`;
    const seed = 42 + k;
    const result = await seedWorkspace(url, {
      teamId: id,
      members: opts.members,
      fromDate: opts.fromDate,
      toDate: opts.toDate,
      seed,
      botTokenEnc: encryptSecret(key, token),
    });
    seeded.runs += result.runs;
    seeded.participants += result.participants;
    seeded.responses += result.responses;
    opts.log(`  ${id}: ${result.members} members, ${result.runs} runs, ${result.responses} responses`);

    const people = benchMembers({
      members: opts.members,
      schedules: 1,
      seed,
      answerRate: 0.85,
      blockerRate: 0.1,
    }).map((m) => m.person);
    const name = `Bench ${id}`;
    fake.addTeam({ id, name, botToken: token, botUserId: BOT_USER_ID });
    for (const p of people) {
      fake.addUser(id, {
        id: p.userId,
        name: p.displayName,
        real_name: p.realName,
        email: p.email,
        tz: p.tz,
        is_admin: p.slackAdmin,
      });
    }
    const ids = people.map((p) => p.userId);
    const soakChannels: Channel[] = [
      { id: "C0SOAKA", name: "standup-all", members: ids },
      { id: "C0SOAKB", name: "standup-odd", members: ids.filter((_, i) => i % 2 === 0) },
      { id: "C0SOAKC", name: "standup-even", members: ids.filter((_, i) => i % 2 === 1) },
      { id: "C0SOAKD", name: "standup-first-half", members: ids.slice(0, Math.ceil(ids.length / 2)) },
    ];
    const channels = [{ id: SEEDED_CHANNEL, name: "standup", members: ids }, ...soakChannels];
    for (const c of channels) fake.addChannel(id, { id: c.id, name: c.name, members: [...c.members, BOT_USER_ID] });
    // Opens the bot's DM with each member now; conversations.open later answers with the same id.
    const dmOf = new Map(ids.map((u) => [u, fake.dmFor(id, u)] as const));
    // The seeded history names each member's DM `D<user>`; runs reuse the DM of an earlier run (as with Slack, whose
    // DM ids never change), so the history must name the DMs this fake Slack opened, or every ask meets
    // channel_not_found.
    await pointHistoryAtDms(url, id, dmOf);
    teams.push({
      id,
      name,
      token,
      adminUserId: result.adminUserId,
      people,
      soakChannels,
      channels,
      dmOf,
      cookies: [],
      mcpKeys: [],
    });
  }
  return { teams, seeded };
}

// ---------------------------------------------------------------------------------------------- Slack requests

/** A message ts as Slack makes them: seconds and a per-process sequence, unique and increasing. */
let tsSeq = 0;
export function messageTs(): string {
  tsSeq = (tsSeq + 1) % 1_000_000;
  return `${Math.floor(Date.now() / 1000)}.${String(tsSeq).padStart(6, "0")}`;
}

/** A signed Events API delivery; retryNum adds X-Slack-Retry-Num as Slack's redelivery of the same event id. */
export function eventRequest(
  teamId: string,
  event: Record<string, unknown>,
  eventId: string,
  retryNum?: number,
): Request {
  const body = JSON.stringify(eventEnvelope(teamId, event, { eventId }));
  const { headers } = sign(body, {
    nowMs: Date.now(),
    secret: BENCH_SIGNING_SECRET,
    ...(retryNum !== undefined ? { retryNum } : {}),
  });
  return { method: "POST", path: "/chat/events", headers, body };
}

export function commandRequest(teamId: string, userId: string, text: string): Request {
  const body = slashCommandForm(teamId, userId, text);
  const { headers } = sign(body, {
    nowMs: Date.now(),
    secret: BENCH_SIGNING_SECRET,
    contentType: "application/x-www-form-urlencoded",
  });
  return { method: "POST", path: "/chat/commands", headers, body };
}

export function interactionRequest(payload: Record<string, unknown>): Request {
  const body = interactionForm(payload);
  const { headers } = sign(body, {
    nowMs: Date.now(),
    secret: BENCH_SIGNING_SECRET,
    contentType: "application/x-www-form-urlencoded",
  });
  return { method: "POST", path: "/chat/interactions", headers, body };
}

/** A press of a button of the ask DM (Answer or Skip today) by its recipient. */
export function buttonPayload(teamId: string, userId: string, dm: string, actionId: string, runId: number) {
  return {
    type: "block_actions",
    team: { id: teamId, domain: teamId.toLowerCase() },
    user: { id: userId, team_id: teamId },
    api_app_id: "A0UPBEAT",
    token: "legacy",
    trigger_id: `trigger.${messageTs()}`,
    channel: { id: dm },
    container: { type: "message", channel_id: dm },
    actions: [{ type: "button", action_id: actionId, block_id: "b", value: String(runId), action_ts: messageTs() }],
  };
}

/** The answer modal submitted: private_metadata carries the run, q0… the answers, `mood` the select. */
export function modalSubmission(teamId: string, userId: string, runId: number, answers: string[], mood: string) {
  return {
    type: "view_submission",
    team: { id: teamId, domain: teamId.toLowerCase() },
    user: { id: userId, team_id: teamId },
    api_app_id: "A0UPBEAT",
    token: "legacy",
    trigger_id: `trigger.${messageTs()}`,
    view: {
      id: `V${messageTs().replace(".", "")}`,
      type: "modal",
      team_id: teamId,
      callback_id: "standup_modal",
      private_metadata: JSON.stringify({ runId }),
      state: {
        values: {
          ...Object.fromEntries(answers.map((a, i) => [`q${i}`, { answer: { type: "plain_text_input", value: a } }])),
          mood: {
            mood: { type: "static_select", selected_option: { value: mood, text: { type: "plain_text", text: mood } } },
          },
        },
      },
    },
  };
}

/** user_change as Slack sends it when a profile is saved: the same person, so roles and activity stay. */
export function userChangeEvent(teamId: string, p: SlackPerson): Record<string, unknown> {
  return {
    type: "user_change",
    user: {
      id: p.userId,
      team_id: teamId,
      name: p.displayName,
      real_name: p.realName,
      deleted: false,
      is_bot: false,
      is_admin: p.slackAdmin,
      tz: p.tz,
      profile: { real_name: p.realName, display_name: p.displayName, email: p.email },
    },
  };
}
