import { z } from "zod";
import { isoDate, isoTimestamp, role } from "./common.ts";
import { QUESTION_TYPES } from "./questions.ts";

export const systemInfo = z.object({ name: z.string(), version: z.string(), status: z.literal("ok") });
const socketState = z
  .enum(["connected", "connecting", "off"])
  .describe("Socket Mode: off over HTTP; connecting until Slack's WebSocket is open (again)");
export const health = z.object({ status: z.literal("ok"), db: z.literal("connected"), socket: socketState });
export const healthDown = z.object({
  status: z.literal("error"),
  db: z.enum(["connected", "unreachable"]),
  socket: socketState,
});

export const me = z
  .object({
    user_id: z.string(),
    team_id: z.string(),
    team_name: z.string(),
    role,
    ai_summaries_available: z
      .boolean()
      .describe("Whether this server has a model for AI summaries (LLM_API_URL is set)"),
  })
  .meta({ id: "CurrentUser" });

export const member = z
  .object({
    user_id: z.string(),
    real_name: z.string(),
    email: z.string(),
    tz: z.string().describe("IANA timezone"),
    active: z.boolean(),
    role,
  })
  .meta({ id: "Member" });

/** A person as any signed-in member may see them: enough to pick and recognise someone, no e-mail. */
export const person = z
  .object({
    user_id: z.string(),
    real_name: z.string().describe("The name to show; Slack's display name or handle when no real name is known"),
    display_name: z.string().describe("Slack's display name (the handle people type after @); may be empty"),
    avatar_url: z.string().nullable().describe("The person's Slack picture (72 px), null when unknown"),
    active: z.boolean().describe("false for people who left the workspace; kept so past answers keep a name"),
  })
  .meta({ id: "Person" });

export const roleChanged = z.object({ ok: z.literal(true), user_id: z.string(), role });

export const channel = z.object({ id: z.string(), name: z.string() }).meta({ id: "Channel" });

/** One question in full: how it is answered (issue 25's typed questions). */
export const questionDetail = z
  .object({
    text: z.string(),
    type: z.enum(QUESTION_TYPES),
    options: z
      .array(z.string())
      .optional()
      .describe("single_choice and multiple_choice: the option texts (2–10), in order"),
    min: z.number().nullable().optional().describe("number: the smallest answer allowed; null: no bound"),
    max: z.number().nullable().optional().describe("number: the largest answer allowed; null: no bound"),
    required: z.boolean().describe("An answer is needed to submit"),
    anonymous: z
      .boolean()
      .describe("Answers are stored without the member and shown only as aggregates of at least 5 answers"),
  })
  .meta({ id: "QuestionDetail" });

export const template = z
  .object({
    name: z.string(),
    questions: z.array(z.string()).describe("The questions' texts"),
    question_details: z
      .array(questionDetail)
      .describe("One per question, in order: its type and options (pass these as a standup's questions to keep them)"),
  })
  .meta({ id: "Template" });

export const lastRun = z
  .object({
    local_date: isoDate.describe("The run's date in the schedule's timezone"),
    status: z.enum(["open", "closed", "skipped"]),
    trigger: z.enum(["schedule", "manual"]).describe('"manual" for Run now'),
    asked: z.number().int().describe("Participants asked so far"),
    answered: z.number().int().describe("Participants who answered"),
    asked_later: z
      .number()
      .int()
      .describe("Participants still to be asked later, at their own time (member-timezone standups)"),
    away: z.number().int().describe("Participants away on the run's date: not asked, counted nowhere"),
  })
  .meta({ id: "LastRun" });

export const schedule = z
  .object({
    id: z.string(),
    channel_id: z.string(),
    schedule_time: z.string().describe("HH:MM"),
    schedule_tz: z.string().describe("IANA timezone"),
    schedule_days: z.string().describe("Comma-separated weekdays: mon,tue,wed,thu,fri,sat,sun"),
    questions: z.array(z.string()).describe("The questions' texts, in order"),
    question_details: z
      .array(questionDetail)
      .describe("One object per question, in the order of questions: its type, options, bounds, required, anonymous"),
    answer_early_hours: z
      .number()
      .int()
      .describe("From this many hours before a run members may answer it ahead (0–16; 0: not ahead)"),
    active: z.boolean(),
    name: z.string().describe('1–80 characters; "#<channel> standup" unless the admin named it'),
    blocker_question: z
      .number()
      .int()
      .nullable()
      .describe("1-based number of the question whose answer is the blocker; null: none"),
    reminder_minutes: z
      .number()
      .int()
      .nullable()
      .describe("Minutes after the ask that one reminder goes to those who have not answered; null: no reminder"),
    ask_in_member_timezone: z.boolean().describe("Ask each participant at schedule_time in their own timezone"),
    kudos_field: z
      .boolean()
      .describe("The answer modal has an optional shout-out: people picked there (or mentioned) get kudos"),
    ai_summary: z
      .boolean()
      .describe("At close, post a short AI summary in the run's thread (needs a model: LLM_API_URL; default false)"),
    next_run_at: isoTimestamp
      .nullable()
      .describe("When the next run starts (holidays and DST included; the schedule's zone); null when paused or never"),
    last_run: lastRun.nullable().describe("The latest run, or null before the first"),
    participant_count: z
      .number()
      .int()
      .describe(
        "Active members in the channel now: who a run would ask (the last run's count if Slack is unreachable)",
      ),
  })
  .meta({ id: "Schedule" });

export const runStarted = z
  .object({
    run_id: z.number().int(),
    schedule_id: z.string(),
    local_date: isoDate.describe("Today in the schedule's timezone: the run's date"),
    trigger: z.literal("manual"),
    asked: z.number().int().describe("How many people the run asks: the channel's active members now"),
  })
  .meta({ id: "RunStarted" });

export const mcpKey = z
  .object({
    id: z.number().int(),
    name: z.string(),
    key_prefix: z.string(),
    created_at: isoTimestamp,
    last_used_at: isoTimestamp.nullable(),
    active: z.boolean(),
    scopes: z
      .array(z.enum(["standups:read", "standups:write"]))
      .describe(
        "What the key may do: standups:read (every read tool); standups:write adds the write tools, acting as the admin who created the key",
      ),
  })
  .meta({ id: "McpKey" });

export const createdMcpKey = mcpKey
  .pick({ id: true, name: true, key_prefix: true, created_at: true, scopes: true })
  .extend({ key: z.string().describe("The whole key, shown only in this response") })
  .meta({ id: "CreatedMcpKey" });

const stdioServer = z.object({
  command: z.string(),
  args: z.array(z.string()),
  env: z.record(z.string(), z.string()),
});
const clientConfig = z.object({
  mcpServers: z.record(z.string(), stdioServer),
  servers: z.record(z.string(), stdioServer.extend({ type: z.literal("stdio") })).optional(),
});
export const mcpConfigs = z
  .object({ claude_desktop: clientConfig, cursor: clientConfig, vscode: clientConfig })
  .meta({ id: "McpClientConfigs" });

export const feedToken = z.object({ token: z.string() });
