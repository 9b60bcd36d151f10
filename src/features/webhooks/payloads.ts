import type { Executor } from "../../db/client.ts";
import type { DomainEvent } from "../../jobs/events.ts";
import { FORMER_MEMBER } from "../../lib/person-names.ts";
import { MOODS } from "../standups/index.ts";
import {
  type ResponseSnapshotRow,
  selectBlocker,
  selectNames,
  selectResponse,
  selectRun,
  selectRunOutcome,
} from "./payloads.repo.ts";

/**
 * The `data` of each event type: a snapshot taken in the emitter's transaction, so a receiver has what it needs
 * without calling back. Field names are snake_case like the rest of the API; docs/webhooks.md documents each shape.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** 😀 5 … 😫 1, as the dashboard scores moods; null without a mood. */
function moodScore(mood: string | null): number | null {
  const at = mood === null ? -1 : (MOODS as readonly string[]).indexOf(mood);
  return at < 0 ? null : MOODS.length - at;
}

function standupOf(row: { scheduleId: string; scheduleName: string; channelId: string }): Json {
  return { id: row.scheduleId, name: row.scheduleName.trim() || null, channel_id: row.channelId };
}

function responseData(r: ResponseSnapshotRow, userName: string): Json {
  return {
    response_id: r.id,
    run_id: r.runId,
    standup: standupOf(r),
    standup_date: r.standupDate,
    user: { id: r.userId, name: userName },
    answers: r.answers.map((answer, i) => ({ question: r.questions[i] ?? `Question ${i + 1}`, answer })),
    mood: r.mood,
    mood_score: moodScore(r.mood),
    has_blocker: r.hasBlocker,
    blockers: r.hasBlocker ? r.blockers : null,
    submitted_at: r.submittedAt.toISOString(),
    edited_at: r.editedAt?.toISOString() ?? null,
  };
}

/** Event data read by field name: the types of other features' events (kudos.given) are not declared here. */
const fieldsOf = (event: DomainEvent): Record<string, unknown> => event.data as unknown as Record<string, unknown>;
const str = (value: unknown): string => (typeof value === "string" ? value : "");
const num = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

async function responseSnapshot(ex: Executor, event: DomainEvent): Promise<Json> {
  const d = fieldsOf(event);
  const row = await selectResponse(ex, event.teamId, num(d.responseId) ?? -1);
  if (!row) {
    return { response_id: num(d.responseId), run_id: num(d.runId), standup_date: str(d.standupDate) };
  }
  const names = await selectNames(ex, event.teamId, [row.userId]);
  return responseData(row, names.get(row.userId) ?? FORMER_MEMBER);
}

async function completedSnapshot(ex: Executor, event: DomainEvent): Promise<Json> {
  const d = fieldsOf(event);
  const run = await selectRun(ex, event.teamId, num(d.runId) ?? -1);
  if (!run) return { run_id: num(d.runId), standup_date: str(d.standupDate) };
  const people = await selectRunOutcome(ex, run.id);
  const answered = people.filter((p) => p.answered);
  const withBlocker = answered.filter((p) => p.hasBlocker);
  const names = await selectNames(
    ex,
    event.teamId,
    withBlocker.map((p) => p.userId),
  );
  const scores = answered.map((p) => moodScore(p.mood)).filter((s): s is number => s !== null);
  return {
    run_id: run.id,
    standup: standupOf(run),
    standup_date: run.localDate,
    asked: people.length,
    answered: answered.length,
    participation_pct: people.length === 0 ? 0 : Math.round((100 * answered.length) / people.length),
    mood_average:
      scores.length === 0 ? null : Math.round((100 * scores.reduce((a, b) => a + b, 0)) / scores.length) / 100,
    blockers: withBlocker.map((p) => ({
      user_id: p.userId,
      user_name: names.get(p.userId) ?? FORMER_MEMBER,
      text: p.blockers,
    })),
  };
}

/** kudos.given comes from the kudos feature: {kudoId, fromUser, toUser, message, channelId, createdAt}. */
async function kudosSnapshot(ex: Executor, event: DomainEvent): Promise<Json> {
  const d = fieldsOf(event);
  const from = str(d.fromUser);
  const to = str(d.toUser);
  const names = await selectNames(ex, event.teamId, [from, to].filter(Boolean));
  return {
    kudo_id: num(d.kudoId),
    from: { id: from, name: names.get(from) ?? FORMER_MEMBER },
    to: { id: to, name: names.get(to) ?? FORMER_MEMBER },
    message: str(d.message),
    channel_id: str(d.channelId) || null,
    created_at: str(d.createdAt) || event.at.toISOString(),
  };
}

const iso = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());

/** blocker.resolved: the item as it stands once resolved, with who resolved it and how. */
async function blockerSnapshot(ex: Executor, event: DomainEvent): Promise<Json> {
  const d = fieldsOf(event);
  const row = await selectBlocker(ex, event.teamId, num(d.blockerId) ?? -1);
  if (!row) return { blocker_id: num(d.blockerId) };
  const resolver = row.resolvedBy ?? "";
  const names = await selectNames(ex, event.teamId, [row.userId, resolver].filter(Boolean));
  return {
    blocker_id: row.id,
    standup: standupOf(row),
    user: { id: row.userId, name: names.get(row.userId) ?? FORMER_MEMBER },
    text: row.text,
    opened_date: row.openedDate,
    opened_at: iso(row.openedAt),
    resolved_at: iso(row.resolvedAt),
    resolved_by: resolver ? { id: resolver, name: names.get(resolver) ?? FORMER_MEMBER } : null,
    resolution_note: row.resolutionNote,
    resolved_via: row.resolvedVia,
  };
}

const BUILDERS: Record<string, (ex: Executor, event: DomainEvent) => Promise<Json>> = {
  "standup.submitted": responseSnapshot,
  "standup.updated": responseSnapshot,
  "blocker.reported": responseSnapshot,
  "standup.completed": completedSnapshot,
  "kudos.given": kudosSnapshot,
  "blocker.resolved": blockerSnapshot,
};

export async function eventData(ex: Executor, event: DomainEvent): Promise<Json> {
  const build = BUILDERS[event.type];
  if (!build) throw new Error(`no webhook payload for ${event.type}`);
  return build(ex, event);
}

export interface Envelope {
  id: string;
  type: string;
  created_at: string;
  team_id: string;
  data: Json;
}

/** The body as sent (and signed) on every attempt: the same bytes each time. */
export function envelope(e: Envelope): string {
  return JSON.stringify({ id: e.id, type: e.type, created_at: e.created_at, team_id: e.team_id, data: e.data });
}
