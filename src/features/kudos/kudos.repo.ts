import { and, count, desc, eq, gte, lt, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { anyOf } from "../../db/arrays.ts";
import { type Executor, rows, type Tx } from "../../db/client.ts";
import { type KudoSource, kudos, members } from "../../db/schema.ts";
import { FORMER_MEMBER } from "../../lib/person-names.ts";

export type KudoRow = typeof kudos.$inferSelect;

/** A kudo with both people's names as the workspace knows them (the user id when unknown). */
export interface NamedKudo {
  id: number;
  fromUser: string;
  toUser: string;
  fromName: string;
  toName: string;
  message: string;
  channelId: string;
  createdAt: Date;
}

// A person whose member row is gone reads as "Former member", never as their id.
const nameOf = (m: { realName: unknown; displayName: unknown }, _userId: unknown) =>
  sql<string>`coalesce(nullif(trim(${m.realName}), ''), nullif(trim(${m.displayName}), ''), ${FORMER_MEMBER})`;

/**
 * Active members whose display name (Slack's handle when they set none) or one-word real name is one of these
 * lowercased names: how a plain `@name` from a command without escaping is resolved.
 */
export async function selectMembersByName(
  ex: Executor,
  teamId: string,
  names: string[],
): Promise<{ userId: string; displayName: string; realName: string }[]> {
  if (names.length === 0) return [];
  return ex
    .select({ userId: members.userId, displayName: members.displayName, realName: members.realName })
    .from(members)
    .where(
      and(
        eq(members.teamId, teamId),
        eq(members.active, true),
        sql`(${anyOf(sql`lower(${members.displayName})`, names)} or ${anyOf(sql`lower(${members.realName})`, names)})`,
      ),
    )
    .limit(50);
}

/**
 * Holds the giver's kudos lock until the transaction ends: deliveries of the same giver's messages, handled in
 * parallel by any number of instances, count and insert one after the other, so the daily limit holds.
 */
export async function lockGiver(tx: Tx, teamId: string, userId: string): Promise<void> {
  await rows(tx, sql`select pg_advisory_xact_lock(hashtextextended(${`kudos:${teamId}:${userId}`}, 0))::text`);
}

export async function countGivenOn(ex: Executor, teamId: string, fromUser: string, date: string): Promise<number> {
  const [row] = await ex
    .select({ n: count() })
    .from(kudos)
    .where(and(eq(kudos.teamId, teamId), eq(kudos.fromUser, fromUser), eq(kudos.givenOn, date)));
  return Number(row?.n ?? 0);
}

/** Who already got a kudo from this message. */
export async function selectReceiversOf(ex: Executor, teamId: string, sourceKey: string): Promise<string[]> {
  const found = await ex
    .select({ toUser: kudos.toUser })
    .from(kudos)
    .where(and(eq(kudos.teamId, teamId), eq(kudos.sourceKey, sourceKey)));
  return found.map((r) => r.toUser);
}

export interface NewKudo {
  teamId: string;
  fromUser: string;
  toUser: string;
  message: string;
  channelId: string;
  source: KudoSource;
  sourceKey: string;
  givenOn: string;
  createdAt: Date;
}

/** Stores the kudo unless this message already gave one to this person (then undefined). */
export async function insertKudo(ex: Executor, row: NewKudo): Promise<KudoRow | undefined> {
  const [inserted] = await ex
    .insert(kudos)
    .values(row)
    .onConflictDoNothing({ target: [kudos.teamId, kudos.sourceKey, kudos.toUser] })
    .returning();
  return inserted;
}

/** The newest kudos of the workspace (since an instant, when given), newest first. */
export async function selectRecentKudos(
  ex: Executor,
  teamId: string,
  opts: { since?: Date; limit: number },
): Promise<NamedKudo[]> {
  const giver = alias(members, "giver");
  const receiver = alias(members, "receiver");
  return ex
    .select({
      id: kudos.id,
      fromUser: kudos.fromUser,
      toUser: kudos.toUser,
      fromName: nameOf(giver, kudos.fromUser),
      toName: nameOf(receiver, kudos.toUser),
      message: kudos.message,
      channelId: kudos.channelId,
      createdAt: kudos.createdAt,
    })
    .from(kudos)
    .leftJoin(giver, and(eq(giver.teamId, kudos.teamId), eq(giver.userId, kudos.fromUser)))
    .leftJoin(receiver, and(eq(receiver.teamId, kudos.teamId), eq(receiver.userId, kudos.toUser)))
    .where(and(eq(kudos.teamId, teamId), opts.since ? gte(kudos.createdAt, opts.since) : undefined))
    .orderBy(desc(kudos.createdAt), desc(kudos.id))
    .limit(opts.limit);
}

export interface LeaderboardRow {
  userId: string;
  realName: string;
  kudosReceived: number;
}

/** Kudos received in [from, to), most first, ties by name; one grouped statement. */
export async function selectLeaderboard(
  ex: Executor,
  teamId: string,
  window: { from: Date; to: Date },
  limit: number,
): Promise<LeaderboardRow[]> {
  const name = nameOf(members, kudos.toUser);
  const received = sql<number>`count(*)::int`;
  const found = await ex
    .select({ userId: kudos.toUser, realName: name, kudosReceived: received })
    .from(kudos)
    .leftJoin(members, and(eq(members.teamId, kudos.teamId), eq(members.userId, kudos.toUser)))
    .where(and(eq(kudos.teamId, teamId), gte(kudos.createdAt, window.from), lt(kudos.createdAt, window.to)))
    .groupBy(kudos.toUser, members.realName, members.displayName)
    .orderBy(desc(received), sql`lower(${name})`, kudos.toUser)
    .limit(limit);
  return found.map((r) => ({ ...r, kudosReceived: Number(r.kudosReceived) }));
}

/** How many kudos the workspace gave in [from, to): one count over kudos_team_created_idx. */
export async function countKudosBetween(
  ex: Executor,
  teamId: string,
  window: { from: Date; to: Date },
): Promise<number> {
  const [row] = await ex
    .select({ n: count() })
    .from(kudos)
    .where(and(eq(kudos.teamId, teamId), gte(kudos.createdAt, window.from), lt(kudos.createdAt, window.to)));
  return Number(row?.n ?? 0);
}
