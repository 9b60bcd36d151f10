import { InstallationGoneError } from "../../chat/chat-clients.ts";
import type { ChatListeners } from "../../chat/router.ts";
import { slackErrorCode } from "../../chat/slack-errors.ts";
import type { Deps } from "../../deps.ts";
import { findMember, upsertPeople } from "./members.repo.ts";
import { isPerson, type SlackUser, toPerson } from "./members.slack.ts";

/**
 * How long a slash command or a button waits for Slack to tell who an unknown person is before it answers anyway
 * (Slack wants the answer within 3 s). The look-up goes on after that, and stores the person when it returns.
 */
export const INTERACTIVE_LOOKUP_MS = 1_000;
/** The same for events (App Home, a DM), which are acknowledged before they are handled. */
export const EVENT_LOOKUP_MS = 3_000;
/** The same when a sign-in link is redeemed: a person waits on a page. */
export const SIGN_IN_LOOKUP_MS = 5_000;

type EnsureDeps = Pick<Deps, "db" | "chat" | "clock" | "log">;

/** Look-ups under way per database (one app instance), so two requests at once for one person ask Slack once. */
const inFlight = new WeakMap<object, Map<string, Promise<boolean>>>();

/**
 * Asks Slack (users.info) about the person and stores them when they are an active human of this workspace, by the
 * member sync's rules: no bots or app users, no Slackbot, no deactivated accounts, no people of another workspace
 * (shared channels). True when they are stored active.
 */
async function addFromSlack(deps: EnsureDeps, teamId: string, userId: string): Promise<boolean> {
  const client = await deps.chat.forTeam(teamId, "read");
  const user = (await client.users.info({ user: userId })).user as SlackUser | undefined;
  if (!user || user.id !== userId || !isPerson(user) || user.deleted) return false;
  if (user.team_id && user.team_id !== teamId) return false;
  await upsertPeople(deps.db, teamId, [toPerson(user)], deps.clock.now());
  return true;
}

function lookup(deps: EnsureDeps, teamId: string, userId: string): Promise<boolean> {
  let running = inFlight.get(deps.db);
  if (!running) {
    running = new Map();
    inFlight.set(deps.db, running);
  }
  const key = `${teamId}:${userId}`;
  const known = running.get(key);
  if (known) return known;
  const map = running;
  const work = addFromSlack(deps, teamId, userId)
    .catch((err: unknown) => {
      // Someone Slack does not know (a made-up id) is an answer, not a failure.
      const code = slackErrorCode(err);
      if (!(err instanceof InstallationGoneError) && code !== "user_not_found") {
        deps.log.warn(
          { team_id: teamId, err: code ?? (err instanceof Error ? err.message : String(err)) },
          "member look-up failed",
        );
      }
      return false;
    })
    .finally(() => map.delete(key));
  map.set(key, work);
  return work;
}

/**
 * Makes sure someone who just used Upbeat in Slack is a member: an active member known to the database passes at
 * once; anyone else is looked up in Slack and added (or reactivated) on the spot, so the sign-in link they get
 * works without waiting for the member sync. Waits at most `deadlineMs` for Slack; never throws for Slack's sake.
 * True when the person is an active member by the time it returns.
 */
export async function ensureMember(
  deps: EnsureDeps,
  teamId: string,
  userId: string,
  opts: { deadlineMs: number },
): Promise<boolean> {
  if ((await findMember(deps.db, teamId, userId))?.active) return true;
  return refreshMember(deps, teamId, userId, opts);
}

/**
 * Reads one person's Slack profile now and stores it (name, e-mail, timezone, admin flag), whether or not they are
 * known: the installer, whose row holds only their id until then. Waits at most `deadlineMs`; never throws.
 * True when they are stored active.
 */
export async function refreshMember(
  deps: EnsureDeps,
  teamId: string,
  userId: string,
  opts: { deadlineMs: number },
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), opts.deadlineMs);
  });
  try {
    return await Promise.race([lookup(deps, teamId, userId), late]);
  } finally {
    clearTimeout(timer);
  }
}

interface Activity {
  teamId: string;
  userId: string;
  deadlineMs: number;
}

const SLACK_USER_ID = /^[UW][A-Z0-9]{2,31}$/;

/**
 * Who acts in this request, when it is one of the ways a person uses Upbeat: the slash command, a button or a modal
 * (answering the standup DM), opening App Home, or a message in the DM. Bots and messages with a subtype (edits,
 * joins) are not people acting.
 */
export function activityOf(body: unknown): Activity | undefined {
  const b = body as {
    type?: string;
    command?: string;
    team_id?: string;
    user_id?: string;
    team?: { id?: string };
    user?: { id?: string };
    event?: { type?: string; user?: string; channel_type?: string; subtype?: string; bot_id?: string };
  };
  let found: Activity | undefined;
  if (typeof b.command === "string") {
    found = { teamId: b.team_id ?? "", userId: b.user_id ?? "", deadlineMs: INTERACTIVE_LOOKUP_MS };
  } else if (b.type === "block_actions" || b.type === "view_submission") {
    found = { teamId: b.team?.id ?? "", userId: b.user?.id ?? "", deadlineMs: INTERACTIVE_LOOKUP_MS };
  } else if (b.type === "event_callback" && b.event) {
    const e = b.event;
    const dm = e.type === "message" && e.channel_type === "im" && !e.subtype && !e.bot_id;
    if (e.type === "app_home_opened" || dm) {
      found = { teamId: b.team_id ?? "", userId: e.user ?? "", deadlineMs: EVENT_LOOKUP_MS };
    }
  }
  if (!found?.teamId || !SLACK_USER_ID.test(found.userId)) return undefined;
  return found;
}

/** Bolt middleware: whoever uses Upbeat in Slack is made a member first (see ensureMember). */
export function ensureMembersMiddleware(bolt: ChatListeners, deps: Deps): void {
  bolt.use(async ({ body, next }) => {
    const who = activityOf(body);
    if (who) await ensureMember(deps, who.teamId, who.userId, { deadlineMs: who.deadlineMs });
    await next();
  });
}
