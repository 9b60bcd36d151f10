/** Shapes of the dashboard API (/dashboard/api/*), as the server answers them. */

export type Role = "admin" | "member";

export interface Me {
  user_id: string;
  team_id: string;
  team_name: string;
  role: Role;
}

export interface Stats {
  total_members: number;
  submitted_today: number;
  participation_7d_pct: number;
  active_blockers: number;
}

export interface Channel {
  id: string;
  name: string;
}

export interface Template {
  name: string;
  questions: string[];
}

export interface Schedule {
  id: string;
  channel_id: string;
  schedule_time: string;
  schedule_tz: string;
  schedule_days: string;
  questions: string[];
  active: boolean;
}

export type ScheduleInput = Omit<Schedule, "id">;

export interface Member {
  user_id: string;
  real_name: string;
  email: string;
  tz: string;
  active: boolean;
  role: Role;
}

export interface StandupResponse {
  user_id: string;
  real_name?: string;
  standup_date: string;
  yesterday: string;
  today: string;
  blockers: string;
  mood: string;
  has_blocker?: boolean;
  submitted_at?: string;
}

export interface ParticipationRow {
  date: string;
  submitted: number;
  total: number;
  pct: number;
}

export interface Reports {
  standups: StandupResponse[];
  participation: ParticipationRow[];
  total_days: number;
  from?: string;
  to?: string;
}

export interface MoodDay {
  date: string;
  avg_score: number;
  counts: Record<string, number>;
}

export interface MemberParticipation {
  user_id: string;
  real_name: string;
  asked: number;
  submitted: number;
  pct: number;
  current_streak: number;
  blockers: number;
}

export interface Analytics {
  days: number;
  from: string;
  to: string;
  mood: { daily: MoodDay[]; overall_avg: number; trend: "up" | "down" | "flat" };
  participation: { daily: ParticipationRow[]; overall_pct: number };
  members: MemberParticipation[];
  blockers: { total: number; by_day: { date: string; count: number }[] };
}

export interface McpKey {
  id: number;
  name: string;
  key_prefix: string;
  created_at: string;
  last_used_at: string | null;
  active: boolean;
}

export interface CreatedMcpKey {
  id: number;
  name: string;
  key: string;
  key_prefix: string;
  created_at: string;
}

export interface McpServerEntry {
  command: string;
  args: string[];
  env?: Record<string, string>;
  type?: string;
}

export interface McpClientConfig {
  mcpServers: Record<string, McpServerEntry>;
  servers?: Record<string, McpServerEntry>;
}

export type McpConfigs = Record<string, McpClientConfig>;

export interface FeedToken {
  token: string;
}
