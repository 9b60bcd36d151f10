import { z } from "zod";
import { isoTimestamp, role } from "./common.ts";

export const systemInfo = z.object({ name: z.string(), version: z.string(), status: z.literal("ok") });
export const health = z.object({ status: z.literal("ok"), db: z.literal("connected") });
export const healthDown = z.object({ status: z.literal("error"), db: z.literal("unreachable") });

export const me = z
  .object({ user_id: z.string(), team_id: z.string(), team_name: z.string(), role })
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

export const roleChanged = z.object({ ok: z.literal(true), user_id: z.string(), role });

export const channel = z.object({ id: z.string(), name: z.string() }).meta({ id: "Channel" });

export const template = z.object({ name: z.string(), questions: z.array(z.string()) }).meta({ id: "Template" });

export const schedule = z
  .object({
    id: z.string(),
    channel_id: z.string(),
    schedule_time: z.string().describe("HH:MM"),
    schedule_tz: z.string().describe("IANA timezone"),
    schedule_days: z.string().describe("Comma-separated weekdays: mon,tue,wed,thu,fri,sat,sun"),
    questions: z.array(z.string()),
    active: z.boolean(),
  })
  .meta({ id: "Schedule" });

export const mcpKey = z
  .object({
    id: z.number().int(),
    name: z.string(),
    key_prefix: z.string(),
    created_at: isoTimestamp,
    last_used_at: isoTimestamp.nullable(),
    active: z.boolean(),
  })
  .meta({ id: "McpKey" });

export const createdMcpKey = mcpKey
  .pick({ id: true, name: true, key_prefix: true, created_at: true })
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
