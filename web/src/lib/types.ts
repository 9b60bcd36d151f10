/**
 * Shapes of the dashboard API (/dashboard/api/*): inferred from the zod schemas the server validates and
 * serialises its answers with (src/contract), so they cannot drift. Types only: nothing of zod reaches the bundle.
 */
export type {
  Analytics,
  Channel,
  CreatedMcpKey,
  EmailPreferences,
  FeedToken,
  LastRun,
  McpClientConfig,
  McpConfigs,
  McpKey,
  Me,
  Member,
  MemberParticipation,
  MoodDay,
  ParticipationRow,
  ReportSummary,
  Reports,
  Role,
  RunStarted,
  Schedule,
  ScheduleInput,
  StandupParticipation,
  StandupResponse,
  Stats,
  Template,
  Today,
  TodayParticipant,
  TodayStandup,
} from "../../../src/contract/index.ts";
