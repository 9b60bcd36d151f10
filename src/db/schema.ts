import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { AnswerValue, QuestionDetail } from "../contract/questions.ts";

/** PostgreSQL full-text vector; drizzle has no built-in type for it. */
export const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** One row per Slack workspace that installed the app. The bot token is stored encrypted (AES-256-GCM). */
export const installations = pgTable("installations", {
  teamId: text("team_id").primaryKey(),
  teamName: text("team_name").notNull(),
  botUserId: text("bot_user_id").notNull(),
  botTokenEnc: text("bot_token_enc").notNull(),
  scopes: text("scopes").notNull().default(""),
  installerUserId: text("installer_user_id").notNull(),
  installedAt: tstz("installed_at").notNull(),
  updatedAt: tstz("updated_at").notNull(),
  uninstalledAt: tstz("uninstalled_at"),
  /**
   * When an uninstall last ended all access (sessions, MCP keys, feed token). Kept through a reinstall:
   * login tokens issued at or before it are refused.
   */
  accessEndedAt: tstz("access_ended_at"),
  /**
   * When Slack refused the bot token (invalid_auth, account_inactive, token_revoked, token_expired), with the code it
   * answered: the workspace needs a reinstall. Set with `uninstalled_at`; a reinstall clears both.
   */
  tokenRefusedAt: tstz("token_refused_at"),
  tokenRefusedError: text("token_refused_error"),
  /** When the current bot token was stored (install or reinstall): older uninstall events do not apply to it. */
  authorizedAt: tstz("authorized_at"),
});

export const members = pgTable(
  "members",
  {
    teamId: text("team_id").notNull(),
    userId: text("user_id").notNull(),
    realName: text("real_name").notNull().default(""),
    displayName: text("display_name").notNull().default(""),
    /** Slack's profile picture (image_72), an https address; empty when unknown. */
    avatarUrl: text("avatar_url").notNull().default(""),
    email: text("email").notNull().default(""),
    tz: text("tz").notNull().default("UTC"),
    active: boolean("active").notNull().default(true),
    role: text("role", { enum: ["admin", "member"] })
      .notNull()
      .default("member"),
    /** Slack's admin/owner flag as last seen; null until seen. Promotion happens only when it turns on. */
    slackAdmin: boolean("slack_admin"),
    createdAt: tstz("created_at").notNull(),
    updatedAt: tstz("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index("members_team_role_idx").on(t.teamId, t.role)],
);

/**
 * The member sync of each workspace (one row per workspace): queued or running now, the last run's times, outcome
 * and counts, and the UTC day whose daily resync was claimed (the claim that makes one instance run it).
 */
export const memberSyncs = pgTable("member_syncs", {
  teamId: text("team_id").primaryKey(),
  state: text("state", { enum: ["idle", "queued", "running"] })
    .notNull()
    .default("idle"),
  reason: text("reason", { enum: ["install", "daily", "manual"] }),
  queuedAt: tstz("queued_at"),
  startedAt: tstz("started_at"),
  finishedAt: tstz("finished_at"),
  outcome: text("outcome", { enum: ["ok", "failed"] }),
  error: text("error"),
  listed: integer("listed"),
  added: integer("added"),
  deactivated: integer("deactivated"),
  reactivated: integer("reactivated"),
  dailyDate: date("daily_date", { mode: "string" }),
});

/** Dashboard sessions. Only the SHA-256 of the cookie value is stored. Pruned once expired (daily maintenance). */
export const sessions = pgTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    teamId: text("team_id").notNull(),
    userId: text("user_id").notNull(),
    createdAt: tstz("created_at").notNull(),
    expiresAt: tstz("expires_at").notNull(),
  },
  (t) => [index("sessions_expires_idx").on(t.expiresAt)],
);

/**
 * Single-use nonces: OAuth states and login tokens. The primary key makes a second use fail. Pruned once expired
 * (after the token or state itself).
 */
export const usedNonces = pgTable(
  "used_nonces",
  {
    nonce: text("nonce").primaryKey(),
    kind: text("kind").notNull(),
    usedAt: tstz("used_at").notNull(),
    expiresAt: tstz("expires_at").notNull(),
  },
  (t) => [index("used_nonces_expires_idx").on(t.expiresAt)],
);

/**
 * The durable intake (src/chat/intake): every verified Slack delivery, stored before it is acknowledged under its
 * event id (or a key derived from the interaction), so a retry dedupes. `pending` until processed (`payload` is
 * cleared then), taken again by a sweep once `retry_at` passes; `failed` when its attempts are spent (kept with the
 * error, shown to admins). Pruned after 7 days (failed ones after 30).
 */
export const chatEvents = pgTable(
  "chat_events",
  {
    eventId: text("event_id").primaryKey(),
    teamId: text("team_id"),
    receivedAt: tstz("received_at").notNull(),
    /** event | command | interaction */
    kind: text("kind").notNull().default("event"),
    /** The event type, slash command or interaction type (view_submission …): no ids, no text. */
    type: text("type"),
    /** The parsed body as JSON text, while it may still be processed. */
    payload: text("payload"),
    /** pending | done | failed; rows from before the intake stored bodies are `done`. */
    state: text("state").notNull().default("done"),
    attempts: integer("attempts").notNull().default(0),
    /** When a sweep may take a pending row: the end of its lease, or of its backoff after a failure. */
    retryAt: tstz("retry_at"),
    lastError: text("last_error"),
    updatedAt: tstz("updated_at"),
  },
  (t) => [
    index("chat_events_received_idx").on(t.receivedAt),
    index("chat_events_due_idx").on(t.retryAt).where(sql`${t.state} = 'pending'`),
    index("chat_events_failed_idx").on(t.teamId, t.receivedAt).where(sql`${t.state} = 'failed'`),
  ],
);

/** Fixed-window counters for rate limits that must hold across instances. Pruned after a day at the latest. */
export const rateLimits = pgTable(
  "rate_limits",
  {
    bucket: text("bucket").notNull(),
    windowStart: tstz("window_start").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.windowStart] })],
);

export const nowSql = sql`now()`;

// ---- Standups -------------------------------------------------------------------------------

export const schedules = pgTable(
  "schedules",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id").notNull(),
    channelId: text("channel_id").notNull(),
    scheduleTime: text("schedule_time").notNull(),
    scheduleTz: text("schedule_tz").notNull(),
    scheduleDays: text("schedule_days").notNull(),
    questions: jsonb("questions").$type<string[]>().notNull(),
    /** Each question's type, options and flags, in the order of `questions`; null: all required free text. */
    questionDetails: jsonb("question_details").$type<QuestionDetail[]>(),
    /** From this many hours before a run a member may answer it ahead (0: not ahead). */
    answerEarlyHours: integer("answer_early_hours").notNull().default(12),
    active: boolean("active").notNull().default(true),
    /** 1–80 characters; empty means the default, "#<channel> standup". */
    name: text("name").notNull().default(""),
    /** 1-based number of the question whose answer is the blocker; null: no blocker question. */
    blockerQuestion: integer("blocker_question").default(3),
    /** Minutes after the ask that the one reminder goes out; null: no reminder. */
    reminderMinutes: integer("reminder_minutes").default(120),
    /** Ask each participant at schedule_time in their own Slack timezone, dated by their own calendar. */
    askInMemberTimezone: boolean("ask_in_member_timezone").notNull().default(false),
    /** The answer modal has an optional shout-out field that gives kudos. */
    kudosField: boolean("kudos_field").notNull().default(false),
    /** At close an AI summary of the run's answers is posted in its thread (only when LLM_API_URL is set). */
    aiSummary: boolean("ai_summary").notNull().default(false),
    /**
     * When the timing (time, zone, days, active, member-timezone mode) last changed: a date runs only if
     * its start time comes after this, so creating or editing a schedule never starts a run in the past.
     */
    timingChangedAt: tstz("timing_changed_at"),
    createdAt: tstz("created_at").notNull(),
    updatedAt: tstz("updated_at").notNull(),
    /** Deleted schedules stay so past runs and answers keep their context. */
    deletedAt: tstz("deleted_at"),
  },
  (t) => [index("schedules_team_idx").on(t.teamId)],
);

/** The workspace calendar: timezone and working days (Celebrations settings edit it) and holidays. */
export const workspaceCalendars = pgTable("workspace_calendars", {
  teamId: text("team_id").primaryKey(),
  timezone: text("timezone").notNull().default("UTC"),
  workingDays: text("working_days").notNull().default("mon,tue,wed,thu,fri"),
  updatedAt: tstz("updated_at").notNull(),
});

/**
 * A workspace's holidays; pruned 400 days after their date. Celebrations move before every one; standups skip only
 * those with skips_standups (a workspace admin's: a Celebrations admin's holidays apply to Celebrations alone).
 */
export const holidays = pgTable(
  "holidays",
  {
    teamId: text("team_id").notNull(),
    date: date("date", { mode: "string" }).notNull(),
    name: text("name").notNull(),
    skipsStandups: boolean("skips_standups").notNull().default(true),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.date] }), index("holidays_date_idx").on(t.date)],
);

export type RunStatus = "open" | "closed" | "skipped";
export type RunTrigger = "schedule" | "manual";

/** One run of a schedule on one local date; the unique key is the exactly-once claim. */
export const standupRuns = pgTable(
  "standup_runs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    teamId: text("team_id").notNull(),
    scheduleId: text("schedule_id").notNull(),
    localDate: date("local_date", { mode: "string" }).notNull(),
    channelId: text("channel_id").notNull(),
    questions: jsonb("questions").$type<string[]>().notNull(),
    /** The questions' types and options as the run asked them; null: all required free text. */
    questionDetails: jsonb("question_details").$type<QuestionDetail[]>(),
    /** The schedule's blocker question as it was when the run started (1-based; null: none). */
    blockerQuestion: integer("blocker_question").default(3),
    /** "schedule" for the timed run, "manual" for Run now. */
    trigger: text("trigger").$type<RunTrigger>().notNull().default("schedule"),
    /** Each participant asked at schedule_time in their own zone (see run_participants.ask_at). */
    memberTimezone: boolean("member_timezone").notNull().default(false),
    scheduleTz: text("schedule_tz").notNull(),
    startsAt: tstz("starts_at").notNull(),
    /** Null when the schedule has no reminder. */
    remindAt: tstz("remind_at"),
    closesAt: tstz("closes_at").notNull(),
    status: text("status").$type<RunStatus>().notNull(),
    parentTs: text("parent_ts"),
    remindedAt: tstz("reminded_at"),
    closedAt: tstz("closed_at"),
    createdAt: tstz("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("standup_runs_schedule_date_uq").on(t.scheduleId, t.localDate),
    index("standup_runs_team_date_idx").on(t.teamId, t.localDate),
    index("standup_runs_open_idx").on(t.status, t.closesAt),
  ],
);

/**
 * One answer given in the DM conversation: [Slack message ts, text] (a bare text in drafts from before), or
 * [ts, marker, question index] for an anonymous answer already stored apart (the draft never keeps its text).
 */
export type DraftAnswer = [ts: string, text: string] | [ts: string, text: string, anonymous: number] | string;

/**
 * "pending": a member-timezone participant whose local ask time has not come yet. "away": on time off on the run's
 * date, so not asked, not reminded and not counted (see the time-off feature).
 */
export type ParticipantStatus = "pending" | "asked" | "answered" | "skipped" | "away";

/** Who a run asked. Inserting the row is the claim that the member is asked at most once per run. */
export const runParticipants = pgTable(
  "run_participants",
  {
    runId: bigint("run_id", { mode: "number" }).notNull(),
    userId: text("user_id").notNull(),
    teamId: text("team_id").notNull(),
    status: text("status").$type<ParticipantStatus>().notNull().default("asked"),
    /** Member-timezone runs: when this member is asked, reminded and their window ends, and their date. */
    askAt: tstz("ask_at"),
    remindAt: tstz("remind_at"),
    closesAt: tstz("closes_at"),
    localDate: date("local_date", { mode: "string" }),
    remindedAt: tstz("reminded_at"),
    /** When the ask DM went out: `remind_at` is set from it then (see participant-times.repo.ts). */
    askedAt: tstz("asked_at"),
    dmChannel: text("dm_channel"),
    /** Conversational answering: answers so far, in the order of their Slack messages. */
    draft: jsonb("draft").$type<DraftAnswer[]>(),
    createdAt: tstz("created_at").notNull(),
    /**
     * Whether the member has an answer for this run, and one reporting a blocker: kept by triggers on responses
     * (migration 0035), so the participation views need no join to the answers. Never written by the app.
     */
    answered: boolean("answered").notNull().default(false),
    hasBlocker: boolean("has_blocker").notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.userId] }),
    index("run_participants_team_user_idx").on(t.teamId, t.userId),
    // Also run_participants_run_cover_idx (run_id) INCLUDE (…): migrations 0034 and 0035.
    // The scheduler's per-member passes: asks that have come, reminders that are due.
    index("run_participants_ask_idx").on(t.status, t.askAt),
    index("run_participants_remind_idx").on(t.remindAt),
  ],
);

/** The run whose questions the bot is asking in a member's DM, one at a time (see dm-conversation.ts). */
export const dmTurns = pgTable(
  "dm_turns",
  {
    teamId: text("team_id").notNull(),
    userId: text("user_id").notNull(),
    runId: bigint("run_id", { mode: "number" }).notNull(),
    updatedAt: tstz("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index("dm_turns_run_idx").on(t.runId)],
);

/** Every standup question asked in a member's DM, with its Slack ts: where a DM answer belongs. */
export const dmQuestions = pgTable(
  "dm_questions",
  {
    runId: bigint("run_id", { mode: "number" }).notNull(),
    userId: text("user_id").notNull(),
    questionIndex: integer("question_index").notNull(),
    teamId: text("team_id").notNull(),
    /** The message that asks it: the ask DM or the hand-over message; null for follow-up questions. */
    postKey: text("post_key"),
    /** Null while its message is being posted. */
    ts: text("ts"),
    createdAt: tstz("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.userId, t.questionIndex] }),
    index("dm_questions_team_user_idx").on(t.teamId, t.userId),
    /** First questions not asked yet (runs waiting for the DM): the scheduler's hand-over pass reads only these. */
    index("dm_questions_unasked_idx").on(t.teamId, t.userId).where(sql`${t.ts} is null and ${t.questionIndex} = 0`),
  ],
);

export const responses = pgTable(
  "responses",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    teamId: text("team_id").notNull(),
    scheduleId: text("schedule_id").notNull(),
    runId: bigint("run_id", { mode: "number" }).notNull(),
    userId: text("user_id").notNull(),
    standupDate: date("standup_date", { mode: "string" }).notNull(),
    answers: jsonb("answers").$type<string[]>().notNull(),
    /** Each question's typed value (null for text, unanswered and anonymous questions); null: all text. */
    answerValues: jsonb("answer_values").$type<AnswerValue[]>(),
    /** Given after the member's window on the run closed, before the standup's next run started. */
    late: boolean("late").notNull().default(false),
    yesterday: text("yesterday").notNull().default(""),
    today: text("today").notNull().default(""),
    blockers: text("blockers").notNull().default(""),
    mood: text("mood"),
    hasBlocker: boolean("has_blocker").notNull().default(false),
    submittedAt: tstz("submitted_at").notNull(),
    editedAt: tstz("edited_at"),
    /** Bumped on every edit; the thread reply job updates Slack until it has shown the latest version. */
    version: integer("version").notNull().default(1),
    replyTs: text("reply_ts"),
    /** Set once, when the response first carried a blocker: `blocker.reported` fires once per response. */
    blockerReportedAt: tstz("blocker_reported_at"),
    /** Where the answer came from when not from Slack: 'mcp' (an AI client acting for the member); null: Slack. */
    via: text("via").$type<AnswerVia>(),
    /** Full-text search over every answer (search_standups). */
    search: tsvector("search").generatedAlwaysAs(sql`jsonb_to_tsvector('english', answers, '["string"]')`),
  },
  (t) => [
    uniqueIndex("responses_member_day_uq").on(t.teamId, t.scheduleId, t.userId, t.standupDate),
    index("responses_team_date_idx").on(t.teamId, t.standupDate),
    // Keyset order of the CSV export: each batch is an index range scan.
    index("responses_team_date_id_idx").on(t.teamId, t.standupDate, t.id),
    index("responses_team_user_date_idx").on(t.teamId, t.userId, t.standupDate),
    // Views filtered by standup (0005_views).
    index("responses_team_schedule_date_idx").on(t.teamId, t.scheduleId, t.standupDate, t.id),
    index("responses_run_idx").on(t.runId),
    // Also responses_run_user_idx (run_id, user_id) INCLUDE (…): migration 0034 (drizzle cannot declare INCLUDE).
    index("responses_search_idx").using("gin", t.search),
  ],
);

/** Answers given ahead of a run that has not started: they become the run's response when it asks the member. */
export const earlyAnswers = pgTable(
  "early_answers",
  {
    teamId: text("team_id").notNull(),
    scheduleId: text("schedule_id").notNull(),
    userId: text("user_id").notNull(),
    localDate: date("local_date", { mode: "string" }).notNull(),
    answers: jsonb("answers").$type<string[]>().notNull(),
    answerValues: jsonb("answer_values").$type<AnswerValue[]>(),
    mood: text("mood"),
    /** The questions as answered (`questionDetailsOf`): a run asking other questions does not take these answers. */
    questions: jsonb("questions").$type<QuestionDetail[]>().notNull(),
    submittedAt: tstz("submitted_at").notNull(),
    updatedAt: tstz("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ name: "early_answers_pk", columns: [t.teamId, t.scheduleId, t.userId, t.localDate] }),
    index("early_answers_team_user_idx").on(t.teamId, t.userId),
  ],
);

/** Answers to anonymous questions: no member, no time, a random key. Shown only as aggregates of five or more. */
export const anonymousAnswers = pgTable(
  "anonymous_answers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    teamId: text("team_id").notNull(),
    scheduleId: text("schedule_id").notNull(),
    standupDate: date("standup_date", { mode: "string" }).notNull(),
    questionIndex: integer("question_index").notNull(),
    value: jsonb("value").$type<AnswerValue>().notNull(),
  },
  (t) => [index("anonymous_answers_team_schedule_date_idx").on(t.teamId, t.scheduleId, t.standupDate)],
);

export type BlockerStatus = "open" | "resolved";
/** Where a blocker was resolved. */
export type BlockerResolvedVia = "dm" | "modal" | "answer" | "dashboard" | "mcp";

/** A blocker a member reported, tracked until resolved: one open item per member and standup. */
export const blockers = pgTable(
  "blockers",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    teamId: text("team_id").notNull(),
    scheduleId: text("schedule_id").notNull(),
    userId: text("user_id").notNull(),
    /** The latest answer that reported it. */
    text: text("text").notNull(),
    status: text("status").$type<BlockerStatus>().notNull().default("open"),
    openedAt: tstz("opened_at").notNull(),
    /** The standup date of the run that first reported it. */
    openedDate: date("opened_date", { mode: "string" }).notNull(),
    firstResponseId: bigint("first_response_id", { mode: "number" }),
    lastResponseId: bigint("last_response_id", { mode: "number" }),
    lastReportedAt: tstz("last_reported_at").notNull(),
    lastDate: date("last_date", { mode: "string" }).notNull(),
    resolvedAt: tstz("resolved_at"),
    resolvedBy: text("resolved_by"),
    resolutionNote: text("resolution_note"),
    resolvedVia: text("resolved_via").$type<BlockerResolvedVia>(),
  },
  (t) => [
    uniqueIndex("blockers_open_uq").on(t.teamId, t.scheduleId, t.userId).where(sql`${t.status} = 'open'`),
    index("blockers_team_status_opened_idx").on(t.teamId, t.status, t.openedAt),
    index("blockers_team_user_idx").on(t.teamId, t.userId),
  ],
);

export type PostState = "sending" | "sent" | "failed" | "unknown";

/**
 * Every message the bot posts is claimed here under a key before it is sent, so retries,
 * restarts and second instances never post it twice. Settled claims (sent, failed) are pruned after 30 days;
 * in-flight ones (sending, unknown) never.
 */
export const chatPosts = pgTable(
  "chat_posts",
  {
    key: text("key").primaryKey(),
    teamId: text("team_id").notNull(),
    channel: text("channel").notNull(),
    state: text("state").$type<PostState>().notNull(),
    ts: text("ts"),
    attempts: integer("attempts").notNull().default(0),
    updatedAt: tstz("updated_at").notNull(),
  },
  (t) => [index("chat_posts_updated_idx").on(t.updatedAt)],
);

/**
 * Pacing of Slack Web API calls per workspace and method, shared by every instance (src/chat/rate-buckets.ts): one
 * row per workspace × bucket. An idle row (untouched for a day: its bucket is full again) carries nothing and is
 * pruned by the daily maintenance run; a workspace's rows go with its data.
 */
export const chatRateBuckets = pgTable(
  "chat_rate_buckets",
  {
    teamId: text("team_id").notNull(),
    bucket: text("bucket").notNull(),
    intervalMs: doublePrecision("interval_ms").notNull(),
    burst: integer("burst").notNull(),
    tat: tstz("tat").notNull(),
    pausedUntil: tstz("paused_until"),
    granted: boolean("granted").notNull(),
    waitMs: doublePrecision("wait_ms").notNull(),
    updatedAt: tstz("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.bucket] }), index("chat_rate_buckets_updated_idx").on(t.updatedAt)],
);

// ---- Insights and AI access -----------------------------------------------------------------

export const mcpKeys = pgTable(
  "mcp_keys",
  {
    id: serial("id").primaryKey(),
    teamId: text("team_id").notNull(),
    name: text("name").notNull().default(""),
    /** SHA-256 of the whole key; the key itself is shown once and never stored. */
    keyHash: text("key_hash").notNull(),
    keyPrefix: text("key_prefix").notNull(),
    /** What the key may do; a key with standups:write acts as the admin who created it. */
    scopes: jsonb("scopes").$type<McpScope[]>().notNull().default(["standups:read"]),
    createdBy: text("created_by").notNull(),
    createdAt: tstz("created_at").notNull(),
    lastUsedAt: tstz("last_used_at"),
    revokedAt: tstz("revoked_at"),
  },
  (t) => [uniqueIndex("mcp_keys_hash_uq").on(t.keyHash), index("mcp_keys_team_idx").on(t.teamId)],
);

/** One public feed token per workspace, stored hashed. */
export const feedTokens = pgTable(
  "feed_tokens",
  {
    teamId: text("team_id").primaryKey(),
    tokenHash: text("token_hash").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: tstz("created_at").notNull(),
  },
  (t) => [uniqueIndex("feed_tokens_hash_uq").on(t.tokenHash)],
);

// ---- Workflow rules ---------------------------------------------------------------------------

export type RuleTrigger = "blocker_reported" | "participation_below" | "mood_below" | "blocker_open_days";
export type RuleAction = "post_to_channel" | "dm_admin";

/** What happens when: a trigger (with its threshold) and an action on a target. At most 100 a workspace. */
export const rules = pgTable(
  "rules",
  {
    id: serial("id").primaryKey(),
    teamId: text("team_id").notNull(),
    trigger: text("trigger").$type<RuleTrigger>().notNull(),
    /** Percent (participation_below), average mood score 1–5 (mood_below) or whole days (blocker_open_days). */
    triggerThreshold: doublePrecision("trigger_threshold"),
    action: text("action").$type<RuleAction>().notNull(),
    /** A channel id (post_to_channel) or an admin's user id (dm_admin). */
    actionTarget: text("action_target").notNull(),
    /** Only this standup's events; null: every standup of the workspace. */
    scheduleId: text("schedule_id"),
    active: boolean("active").notNull().default(true),
    createdBy: text("created_by").notNull(),
    createdAt: tstz("created_at").notNull(),
    updatedAt: tstz("updated_at").notNull(),
    /** Bumped on every edit: an edit validated against one version is written only over that version. */
    version: integer("version").notNull().default(1),
  },
  (t) => [index("rules_team_trigger_idx").on(t.teamId, t.trigger)],
);

/**
 * A rule fired for a subject: a response (blocker_reported) or a run (the close triggers). Inserted in the
 * transaction of the event, under a unique key per rule and subject, so a rule fires at most once for it.
 * Pruned after 90 days.
 */
export const ruleFirings = pgTable(
  "rule_firings",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    teamId: text("team_id").notNull(),
    ruleId: integer("rule_id").notNull(),
    runId: bigint("run_id", { mode: "number" }).notNull(),
    responseId: bigint("response_id", { mode: "number" }),
    /** The blocker item a blocker_open_days firing is about (run_id: the run that last reported it). */
    blockerId: bigint("blocker_id", { mode: "number" }),
    /** What the firing job did: posted, not_below, no_data, … (null until it ran). */
    outcome: text("outcome"),
    createdAt: tstz("created_at").notNull(),
    doneAt: tstz("done_at"),
  },
  (t) => [
    uniqueIndex("rule_firings_response_uq").on(t.ruleId, t.responseId).where(sql`${t.responseId} is not null`),
    uniqueIndex("rule_firings_run_uq")
      .on(t.ruleId, t.runId)
      .where(sql`${t.responseId} is null and ${t.blockerId} is null`),
    uniqueIndex("rule_firings_blocker_uq").on(t.ruleId, t.blockerId).where(sql`${t.blockerId} is not null`),
    index("rule_firings_team_created_idx").on(t.teamId, t.createdAt),
    index("rule_firings_created_idx").on(t.createdAt),
  ],
);

// ---- Kudos ----------------------------------------------------------------------------------------

export type KudoSource = "message" | "command" | "standup" | "mcp";

/**
 * One row per person a kudo went to. Kept for good (the product's data). The unique key is the claim that a
 * message (a channel message, a slash command, a standup's shout-out) gives each person at most one kudo.
 */
export const kudos = pgTable(
  "kudos",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    teamId: text("team_id").notNull(),
    fromUser: text("from_user").notNull(),
    toUser: text("to_user").notNull(),
    message: text("message").notNull(),
    /** Where it was given: the message's channel, the command's, the standup's. */
    channelId: text("channel_id").notNull(),
    source: text("source").$type<KudoSource>().notNull(),
    /** `msg:<channel>:<ts>`, `cmd:<trigger id>` or `standup:<response id>`. */
    sourceKey: text("source_key").notNull(),
    /** The workspace's date when it was given: the daily limit counts by it. */
    givenOn: date("given_on", { mode: "string" }).notNull(),
    createdAt: tstz("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("kudos_source_receiver_uq").on(t.teamId, t.sourceKey, t.toUser),
    index("kudos_team_created_idx").on(t.teamId, t.createdAt, t.id),
    index("kudos_team_giver_day_idx").on(t.teamId, t.fromUser, t.givenOn),
  ],
);

// ---- Profiles -------------------------------------------------------------------------------------

/** A member's profile: birthday as month and day only (no year is ever stored), start date, free-text fields. */
export const profiles = pgTable(
  "profiles",
  {
    teamId: text("team_id").notNull(),
    userId: text("user_id").notNull(),
    birthMonth: smallint("birth_month"),
    birthDay: smallint("birth_day"),
    startDate: date("start_date", { mode: "string" }),
    role: text("role").notNull().default(""),
    location: text("location").notNull().default(""),
    askMeAbout: text("ask_me_about").notNull().default(""),
    celebrate: boolean("celebrate").notNull().default(true),
    /** True when an admin (or an admin's import) wrote it last, false when the member did. */
    setByAdmin: boolean("set_by_admin").notNull().default(false),
    updatedAt: tstz("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] })],
);

// ---- Webhooks -------------------------------------------------------------------------------------

/** An outbound webhook endpoint. Disabled (410, or 5 days of failures) endpoints stay listed until deleted. */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: serial("id").primaryKey(),
    teamId: text("team_id").notNull(),
    url: text("url").notNull(),
    /** The event types it receives. */
    events: text("events").array().notNull(),
    /** `whsec_…`, encrypted with the token-encryption key: every delivery is signed with it. */
    secretEnc: text("secret_enc").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: tstz("created_at").notNull(),
    lastSuccessAt: tstz("last_success_at"),
    /** The first failed attempt since the last success; null while deliveries succeed. */
    failingSince: tstz("failing_since"),
    /** The last failed attempt: a failure more than FAILURE_STREAK_GAP after it starts a new streak. */
    lastFailureAt: tstz("last_failure_at"),
    disabledAt: tstz("disabled_at"),
    disabledReason: text("disabled_reason"),
  },
  (t) => [index("webhook_endpoints_team_idx").on(t.teamId, t.id)],
);

export type DeliveryStatus = "pending" | "delivered" | "failed";

/** One message to one endpoint, retried in place; the unique key is the claim that a message goes once per endpoint. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    teamId: text("team_id").notNull(),
    endpointId: integer("endpoint_id").notNull(),
    /** `msg_…`: the body's id and the webhook-id header, the same on every attempt. */
    messageId: text("message_id").notNull(),
    type: text("type").notNull(),
    /** The exact body sent on every attempt; null once the delivery is finished. */
    payload: text("payload"),
    status: text("status").$type<DeliveryStatus>().notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** When the next attempt is due (while an attempt runs: when it counts as lost); null once finished. */
    nextAttemptAt: tstz("next_attempt_at"),
    lastAttemptAt: tstz("last_attempt_at"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: tstz("created_at").notNull(),
    finishedAt: tstz("finished_at"),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_endpoint_message_uq").on(t.endpointId, t.messageId),
    index("webhook_deliveries_endpoint_created_idx").on(t.endpointId, t.createdAt, t.id),
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`"status" = 'pending'`),
    index("webhook_deliveries_created_idx").on(t.createdAt),
  ],
);
// ---- E-mail ---------------------------------------------------------------------------------

/** An admin's switch for the weekly digest; no row means on. */
export const emailPreferences = pgTable(
  "email_preferences",
  {
    teamId: text("team_id").notNull(),
    userId: text("user_id").notNull(),
    digest: boolean("digest").notNull(),
    updatedAt: tstz("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] })],
);

export type EmailKind = "welcome" | "digest" | "reinstall";
/** queued: claimed, the job will send it; sent: the provider took it; dropped: the provider refused it for good; skipped: nothing to send any more. */
export type EmailState = "queued" | "sent" | "dropped" | "skipped";

/**
 * Every e-mail is claimed here under its key before it is sent, so retries, restarts and second instances never
 * send it twice: `welcome` once per workspace (kept for good), `digest:<week start>:<user id>` once per workspace,
 * week and recipient (pruned after 90 days).
 */
export const emailSends = pgTable(
  "email_sends",
  {
    teamId: text("team_id").notNull(),
    key: text("key").notNull(),
    kind: text("kind").$type<EmailKind>().notNull(),
    userId: text("user_id").notNull(),
    /** Digest: the Monday of the week it reports. */
    weekStart: date("week_start", { mode: "string" }),
    state: text("state").$type<EmailState>().notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** The provider's id for the message, once sent. */
    providerId: text("provider_id"),
    createdAt: tstz("created_at").notNull(),
    updatedAt: tstz("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.key] }),
    index("email_sends_team_kind_created_idx").on(t.teamId, t.kind, t.createdAt),
  ],
);

/** A workspace's weekly digest, claimed once per week (the Monday of the week it reports); pruned after 90 days. */
export const emailDigestWeeks = pgTable(
  "email_digest_weeks",
  {
    teamId: text("team_id").notNull(),
    weekStart: date("week_start", { mode: "string" }).notNull(),
    recipients: integer("recipients").notNull().default(0),
    claimedAt: tstz("claimed_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.weekStart] })],
);

// ---- Celebrations ---------------------------------------------------------------------------------

/** A workspace's Celebrations settings; its timezone and working days live in workspace_calendars. */
export const celebrationSettings = pgTable("celebration_settings", {
  teamId: text("team_id").primaryKey(),
  channelId: text("channel_id"),
  postTime: text("post_time").notNull().default("09:00"),
  birthdays: boolean("birthdays").notNull().default(true),
  anniversaries: boolean("anniversaries").notNull().default(true),
  admins: jsonb("admins").$type<string[]>().notNull().default([]),
  updatedAt: tstz("updated_at").notNull(),
});

export type CelebrationKind = "birthday" | "anniversary";

/** The exactly-once claim of one daily post (one per kind and posting day); pruned after 400 days. */
export const celebrationPosts = pgTable(
  "celebration_posts",
  {
    teamId: text("team_id").notNull(),
    kind: text("kind").$type<CelebrationKind>().notNull(),
    postDate: date("post_date", { mode: "string" }).notNull(),
    userIds: jsonb("user_ids").$type<string[]>().notNull(),
    claimedAt: tstz("claimed_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.kind, t.postDate] })],
);

/** When a member was last asked for their dates: the claim that makes it at most once per 30 days. */
export const celebrationAsks = pgTable(
  "celebration_asks",
  {
    teamId: text("team_id").notNull(),
    userId: text("user_id").notNull(),
    askedAt: tstz("asked_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] })],
);

// ---- Time off -------------------------------------------------------------------------------------

/**
 * A member's away range, both dates included. A member's ranges never overlap nor touch (writes merge them);
 * ranges that ended more than a year ago are pruned.
 */
export const timeOff = pgTable(
  "time_off",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    teamId: text("team_id").notNull(),
    userId: text("user_id").notNull(),
    startDate: date("start_date", { mode: "string" }).notNull(),
    endDate: date("end_date", { mode: "string" }).notNull(),
    reason: text("reason").notNull().default(""),
    createdBy: text("created_by").notNull(),
    createdAt: tstz("created_at").notNull(),
    updatedAt: tstz("updated_at").notNull(),
    /** 'mcp' when an AI client set it for the member; null: Slack or the dashboard. */
    via: text("via").$type<AnswerVia>(),
  },
  (t) => [
    index("time_off_team_user_idx").on(t.teamId, t.userId, t.startDate),
    index("time_off_team_end_idx").on(t.teamId, t.endDate),
  ],
);

// ---- Maintenance ----------------------------------------------------------------------------------

/**
 * The daily maintenance run (retention), one row per UTC day: inserted before it runs, so with several instances
 * one runs it. `pruned` counts the rows each step deleted. Pruned after 90 days.
 */
/** The daily auth.test pass: one row per UTC day, claimed before its jobs are queued (one instance queues them). */
export const tokenCheckRuns = pgTable("token_check_runs", {
  day: date("day", { mode: "string" }).primaryKey(),
  claimedAt: tstz("claimed_at").notNull(),
  workspaces: integer("workspaces").notNull(),
});

export const maintenanceRuns = pgTable("maintenance_runs", {
  day: date("day", { mode: "string" }).primaryKey(),
  claimedAt: tstz("claimed_at").notNull(),
  finishedAt: tstz("finished_at"),
  outcome: text("outcome", { enum: ["ok", "failed"] }),
  pruned: jsonb("pruned").$type<Record<string, number>>(),
});

// ---- MCP OAuth and AI summaries (0030) ----------------------------------------------------------------

/** What an MCP credential (API key or OAuth token) may do. */
export type McpScope = "standups:read" | "standups:write";
/** Where a record came from when not from Slack or the dashboard. */
export type AnswerVia = "mcp";
export type OAuthClientKind = "dynamic" | "metadata_document";
export type OAuthTokenKind = "code" | "access" | "refresh";
/** `removed`: its text was cleared when a member's data was deleted (the text may have named them). */
export type AiSummaryStatus = "pending" | "posted" | "failed" | "skipped" | "removed";

/** OAuth clients: registered dynamically (RFC 7591) or known by their Client ID Metadata Document (cached). */
export const oauthClients = pgTable("oauth_clients", {
  clientId: text("client_id").primaryKey(),
  kind: text("kind").$type<OAuthClientKind>().notNull(),
  clientName: text("client_name").notNull(),
  redirectUris: jsonb("redirect_uris").$type<string[]>().notNull(),
  clientUri: text("client_uri"),
  metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull(),
  createdAt: tstz("created_at").notNull(),
  /** Metadata documents: when the document was last fetched (re-fetched when stale). */
  fetchedAt: tstz("fetched_at"),
  lastUsedAt: tstz("last_used_at"),
});

/** An authorization request waiting for consent in the dashboard; the id is random, only its SHA-256 stored. */
export const oauthRequests = pgTable("oauth_requests", {
  idHash: text("id_hash").primaryKey(),
  clientId: text("client_id").notNull(),
  redirectUri: text("redirect_uri").notNull(),
  state: text("state"),
  codeChallenge: text("code_challenge").notNull(),
  scopes: jsonb("scopes").$type<McpScope[]>().notNull(),
  resource: text("resource").notNull(),
  createdAt: tstz("created_at").notNull(),
  expiresAt: tstz("expires_at").notNull(),
  decidedAt: tstz("decided_at"),
});

/** A person's consent to one client: the connected-clients page lists and revokes these. */
export const oauthGrants = pgTable(
  "oauth_grants",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    teamId: text("team_id").notNull(),
    userId: text("user_id").notNull(),
    clientId: text("client_id").notNull(),
    scopes: jsonb("scopes").$type<McpScope[]>().notNull(),
    resource: text("resource").notNull(),
    createdAt: tstz("created_at").notNull(),
    lastUsedAt: tstz("last_used_at"),
    revokedAt: tstz("revoked_at"),
  },
  (t) => [index("oauth_grants_team_user_idx").on(t.teamId, t.userId)],
);

/** Codes, access and refresh tokens of a grant, stored as SHA-256 hashes. */
export const oauthTokens = pgTable(
  "oauth_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    kind: text("kind").$type<OAuthTokenKind>().notNull(),
    grantId: bigint("grant_id", { mode: "number" }).notNull(),
    teamId: text("team_id").notNull(),
    /** Codes only: the PKCE S256 challenge and the redirect URI the code was issued for. */
    codeChallenge: text("code_challenge"),
    redirectUri: text("redirect_uri"),
    createdAt: tstz("created_at").notNull(),
    expiresAt: tstz("expires_at").notNull(),
    /** Codes and refresh tokens: set when exchanged; presented again, the grant is revoked. */
    usedAt: tstz("used_at"),
  },
  (t) => [index("oauth_tokens_grant_idx").on(t.grantId), index("oauth_tokens_expires_idx").on(t.expiresAt)],
);

/** One AI summary per run, claimed before the model is called. */
export const aiSummaries = pgTable(
  "ai_summaries",
  {
    runId: bigint("run_id", { mode: "number" }).primaryKey(),
    teamId: text("team_id").notNull(),
    scheduleId: text("schedule_id").notNull(),
    standupDate: date("standup_date", { mode: "string" }).notNull(),
    status: text("status").$type<AiSummaryStatus>().notNull(),
    text: text("text"),
    model: text("model"),
    tokens: integer("tokens").notNull().default(0),
    /** Why it failed, without any answer text. */
    error: text("error"),
    createdAt: tstz("created_at").notNull(),
    finishedAt: tstz("finished_at"),
  },
  (t) => [index("ai_summaries_team_date_idx").on(t.teamId, t.standupDate)],
);

/** Tokens spent on the model per workspace and UTC day. */
export const llmUsage = pgTable(
  "llm_usage",
  {
    teamId: text("team_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    tokens: integer("tokens").notNull().default(0),
    calls: integer("calls").notNull().default(0),
  },
  (t) => [primaryKey({ name: "llm_usage_pk", columns: [t.teamId, t.day] })],
);

/** One AI summary per standup and week for the weekly digest, claimed before the model is called (0032). */
export const aiDigestSummaries = pgTable(
  "ai_digest_summaries",
  {
    teamId: text("team_id").notNull(),
    scheduleId: text("schedule_id").notNull(),
    weekStart: date("week_start", { mode: "string" }).notNull(),
    status: text("status").$type<AiSummaryStatus>().notNull(),
    text: text("text"),
    model: text("model"),
    tokens: integer("tokens").notNull().default(0),
    /** Why it failed, without any answer text. */
    error: text("error"),
    createdAt: tstz("created_at").notNull(),
    finishedAt: tstz("finished_at"),
  },
  (t) => [primaryKey({ name: "ai_digest_summaries_pk", columns: [t.teamId, t.scheduleId, t.weekStart] })],
);
