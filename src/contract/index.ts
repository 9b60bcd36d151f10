import type { z } from "zod";
import type * as blockers from "./blockers.ts";
import type * as celebrations from "./celebrations.ts";
import type * as chatEvents from "./chat-events.ts";
import type * as dataRemoval from "./data-removal.ts";
import type * as email from "./email.ts";
import type * as insights from "./insights.ts";
import type * as kudos from "./kudos.ts";
import type * as members from "./members.ts";
import type * as oauthGrants from "./oauth-grants.ts";
import type * as profiles from "./profiles.ts";
import type { QuestionDetail } from "./questions.ts";
import type * as rules from "./rules.ts";
import type * as timeOff from "./time-off.ts";
import type * as webhooks from "./webhooks.ts";
import type * as workspace from "./workspace.ts";

export * from "./blockers.ts";
export * from "./celebrations.ts";
export * from "./chat-events.ts";
export * from "./common.ts";
export * from "./data-removal.ts";
export * from "./email.ts";
export * from "./emoji.ts";
export * from "./insights.ts";
export * from "./kudos.ts";
export * from "./manifest.ts";
export * from "./members.ts";
export * from "./oauth-grants.ts";
export * from "./profiles.ts";
export * from "./question-stats.ts";
export * from "./questions.ts";
export * from "./rules.ts";
export * from "./slack-text.ts";
export * from "./time-off.ts";
export * from "./webhooks.ts";
export * from "./workspace.ts";

/** The types the dashboard reads, inferred from the schemas the server answers with. */
export type Role = z.output<typeof workspace.me>["role"];
export type Me = z.output<typeof workspace.me>;
export type FailedChatEvent = z.output<typeof chatEvents.failedChatEvent>;
export type Member = z.output<typeof workspace.member>;
export type Person = z.output<typeof workspace.person>;
export type MemberSyncStatus = z.output<typeof members.memberSyncStatus>;
export type MemberSyncQueued = z.output<typeof members.memberSyncQueued>;
export type Channel = z.output<typeof workspace.channel>;
export type Template = z.output<typeof workspace.template>;
export type Schedule = z.output<typeof workspace.schedule>;
export type LastRun = z.output<typeof workspace.lastRun>;
/** What POST and PUT take: the writable fields (PUT: any of them); name null restores the default. */
export type ScheduleInput = Omit<
  Schedule,
  "id" | "name" | "next_run_at" | "last_run" | "participant_count" | "question_details" | "questions"
> & {
  name: string | null;
  /** A string is a required text question; an object says the type (text when omitted), options, bounds. */
  questions: (string | QuestionInput)[];
};
/** One question as POST and PUT take it. */
export type QuestionInput = Pick<QuestionDetail, "text"> & Partial<Omit<QuestionDetail, "text">>;
export type RunStarted = z.output<typeof workspace.runStarted>;
export type McpKey = z.output<typeof workspace.mcpKey>;
export type CreatedMcpKey = z.output<typeof workspace.createdMcpKey>;
export type McpConfigs = z.output<typeof workspace.mcpConfigs>;
export type McpClientConfig = McpConfigs[keyof McpConfigs];
export type OAuthGrant = z.output<typeof oauthGrants.oauthGrant>;
export type FeedToken = z.output<typeof workspace.feedToken>;
export type BlockerItem = z.output<typeof blockers.blockerItem>;
export type BlockerPage = z.output<typeof blockers.blockerPage>;
export type Stats = z.output<typeof insights.stats>;
export type StandupResponse = z.output<typeof insights.standupResponse>;
export type LabelledAnswer = z.output<typeof insights.labelledAnswer>;
export type ParticipationRow = z.output<typeof insights.participationRow>;
export type StandupParticipation = z.output<typeof insights.standupParticipation>;
export type Reports = z.output<typeof insights.reports>;
export type ReportSummary = z.output<typeof insights.reportSummary>;
export type Today = z.output<typeof insights.today>;
export type TodayStandup = z.output<typeof insights.todayStandup>;
export type TodayParticipant = z.output<typeof insights.todayParticipant>;
export type Analytics = z.output<typeof insights.analytics>;
export type MoodDay = z.output<typeof insights.moodDay>;
export type MemberParticipation = z.output<typeof insights.memberParticipation>;
export type Rule = z.output<typeof rules.rule>;
export type RuleTrigger = Rule["trigger"];
export type RuleAction = Rule["action"];
/** What POST takes (PUT: any of these); trigger_threshold and schedule_id may be null. */
export type RuleInput = Omit<Rule, "id" | "created_at" | "last_fired_at" | "fired_count">;
export type Kudo = z.output<typeof kudos.kudo>;
export type LeaderboardEntry = z.output<typeof kudos.leaderboardEntry>;
export type WebhookEventType = z.output<typeof webhooks.webhookEventType>;
export type WebhookEndpoint = z.output<typeof webhooks.webhookEndpoint>;
export type CreatedWebhookEndpoint = z.output<typeof webhooks.createdWebhookEndpoint>;
export type WebhookDelivery = z.output<typeof webhooks.webhookDelivery>;
export type WebhookUrlRefusal = (typeof webhooks.WEBHOOK_URL_REFUSALS)[number];
export type EmailPreferences = z.output<typeof email.emailPreferences>;
export type Profile = z.output<typeof profiles.profile>;
export type MemberProfile = z.output<typeof profiles.memberProfile>;
export type ProfileImportRow = z.output<typeof profiles.profileImportRow>;
export type ProfileImportResult = z.output<typeof profiles.profileImportResult>;
export type CelebrationSettings = z.output<typeof celebrations.celebrationSettings>;
export type Holiday = z.output<typeof celebrations.holiday>;
export type ListedHoliday = z.output<typeof celebrations.listedHoliday>;
export type HolidayImport = z.output<typeof celebrations.holidayImport>;
export type HolidayImportRow = z.output<typeof celebrations.holidayImportRow>;
export type UpcomingCelebration = z.output<typeof celebrations.upcomingCelebration>;
export type AskDatesPreview = z.output<typeof celebrations.askDatesPreview>;
export type AskDatesSent = z.output<typeof celebrations.askDatesSent>;
export type TimeOffRange = z.output<typeof timeOff.timeOffRange>;
export type TimeOffList = z.output<typeof timeOff.timeOffList>;
export type TimeOffInput = z.input<typeof timeOff.timeOffInput>;
export type WorkspaceDeleted = z.output<typeof dataRemoval.workspaceDeleted>;
export type MemberDataDeleted = z.output<typeof dataRemoval.memberDataDeleted>;
