import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

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
});

export const members = pgTable(
  "members",
  {
    teamId: text("team_id").notNull(),
    userId: text("user_id").notNull(),
    realName: text("real_name").notNull().default(""),
    displayName: text("display_name").notNull().default(""),
    email: text("email").notNull().default(""),
    tz: text("tz").notNull().default("UTC"),
    active: boolean("active").notNull().default(true),
    role: text("role", { enum: ["admin", "member"] })
      .notNull()
      .default("member"),
    createdAt: tstz("created_at").notNull(),
    updatedAt: tstz("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index("members_team_role_idx").on(t.teamId, t.role)],
);

/** Dashboard sessions. Only the SHA-256 of the cookie value is stored. */
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

/** Single-use nonces: OAuth states and login tokens. The primary key makes a second use fail. */
export const usedNonces = pgTable("used_nonces", {
  nonce: text("nonce").primaryKey(),
  kind: text("kind").notNull(),
  usedAt: tstz("used_at").notNull(),
  expiresAt: tstz("expires_at").notNull(),
});

/** Slack retries an event when it gets no 200 within 3 s; the event id is claimed once. */
export const chatEvents = pgTable("chat_events", {
  eventId: text("event_id").primaryKey(),
  teamId: text("team_id"),
  receivedAt: tstz("received_at").notNull(),
});

/** Fixed-window counters for rate limits that must hold across instances. */
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
