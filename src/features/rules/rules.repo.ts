import { and, asc, eq, sql } from "drizzle-orm";
import { type Executor, rows } from "../../db/client.ts";
import { rules } from "../../db/schema.ts";

export type RuleRow = typeof rules.$inferSelect;
export type NewRuleRow = typeof rules.$inferInsert;

/** The editable columns of a rule; omitted ones stay as they are. */
export type RulePatch = Partial<
  Pick<RuleRow, "trigger" | "triggerThreshold" | "action" | "actionTarget" | "scheduleId" | "active">
>;

/** Every rule of the workspace, oldest first (at most MAX_RULES). */
export async function selectRules(ex: Executor, teamId: string): Promise<RuleRow[]> {
  return ex.select().from(rules).where(eq(rules.teamId, teamId)).orderBy(asc(rules.id));
}

export async function selectRule(ex: Executor, teamId: string, id: number): Promise<RuleRow | undefined> {
  const [row] = await ex
    .select()
    .from(rules)
    .where(and(eq(rules.teamId, teamId), eq(rules.id, id)))
    .limit(1);
  return row;
}

/**
 * Inserts the rule unless the workspace has `max` already. The transaction-scoped advisory lock per workspace
 * makes count-then-insert one step: two admins adding the last allowed rule at once cannot both succeed.
 */
export async function countRules(ex: Executor, teamId: string): Promise<number> {
  const [count] = await rows<{ n: number }>(ex, sql`select count(*)::int as n from rules where team_id = ${teamId}`);
  return Number(count?.n ?? 0);
}

export async function insertRuleCapped(ex: Executor, row: NewRuleRow, max: number): Promise<RuleRow | undefined> {
  await ex.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`upbeat.rules:${row.teamId}`}, 0))`);
  if ((await countRules(ex, row.teamId)) >= max) return undefined;
  const [inserted] = await ex.insert(rules).values(row).returning();
  return inserted;
}

/**
 * Writes the patch only over the version it was validated against (compare-and-set), in one statement:
 * undefined when the rule changed (or went) meanwhile.
 */
export async function updateRuleRow(
  ex: Executor,
  teamId: string,
  id: number,
  version: number,
  patch: RulePatch,
  now: Date,
): Promise<RuleRow | undefined> {
  const [row] = await ex
    .update(rules)
    .set({ ...patch, updatedAt: now, version: sql`${rules.version} + 1` })
    .where(and(eq(rules.teamId, teamId), eq(rules.id, id), eq(rules.version, version)))
    .returning();
  return row;
}

/** The rules limited to one standup (deleted with it). */
export async function deleteRulesOfSchedule(ex: Executor, teamId: string, scheduleId: string): Promise<number> {
  const deleted = await ex
    .delete(rules)
    .where(and(eq(rules.teamId, teamId), eq(rules.scheduleId, scheduleId)))
    .returning({ id: rules.id });
  return deleted.length;
}

export async function deleteRuleRow(ex: Executor, teamId: string, id: number): Promise<boolean> {
  const deleted = await ex
    .delete(rules)
    .where(and(eq(rules.teamId, teamId), eq(rules.id, id)))
    .returning({ id: rules.id });
  return deleted.length > 0;
}
