import type { Rule } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { badRequest, conflict, notFound } from "../../http/errors.ts";
import { type FiringStats, firingStats } from "./firings.repo.ts";
import { MAX_RULES, type RuleCreate, type RuleShape, type RuleUpdate, ruleProblem } from "./rules.input.ts";
import { checkAdminTarget, checkChannelTarget, checkSchedule } from "./rules.refs.ts";
import {
  countRules,
  deleteRuleRow,
  insertRuleCapped,
  type RulePatch,
  type RuleRow,
  selectRule,
  selectRules,
  updateRuleRow,
} from "./rules.repo.ts";

type RuleDeps = Pick<Deps, "db" | "clock" | "chat">;

/** serial is a 32-bit integer: a larger id cannot exist, and must not reach the database as a parameter. */
const MAX_SERIAL = 2_147_483_647;
/** Edits racing on one rule: after this many lost compare-and-sets the caller is told to try again. */
const MAX_EDIT_ATTEMPTS = 3;

const NEVER_FIRED: FiringStats = { lastFiredAt: null, firedCount: 0 };

export function presentRule(row: RuleRow, fired: FiringStats = NEVER_FIRED): Rule {
  return {
    id: row.id,
    trigger: row.trigger,
    trigger_threshold: row.triggerThreshold,
    action: row.action,
    action_target: row.actionTarget,
    schedule_id: row.scheduleId,
    active: row.active,
    created_at: row.createdAt.toISOString(),
    last_fired_at: fired.lastFiredAt?.toISOString() ?? null,
    fired_count: fired.firedCount,
  };
}

/** Unknown, malformed and other workspaces' ids are all 404, so existence does not leak. */
function ruleId(raw: string): number {
  const id = /^\d{1,10}$/.test(raw) ? Number(raw) : 0;
  if (id < 1 || id > MAX_SERIAL) throw notFound("Rule not found");
  return id;
}

function checkShape(shape: RuleShape): void {
  const problem = ruleProblem(shape);
  if (problem) throw badRequest(problem);
}

/** The target must be this workspace's: a channel the app is in, or an active admin. */
async function checkTarget(deps: RuleDeps, teamId: string, shape: RuleShape): Promise<void> {
  if (shape.action === "post_to_channel") await checkChannelTarget(deps, teamId, shape.actionTarget);
  else await checkAdminTarget(deps, teamId, shape.actionTarget);
}

export async function listRules(deps: Pick<Deps, "db">, teamId: string): Promise<Rule[]> {
  const [found, fired] = await Promise.all([selectRules(deps.db, teamId), firingStats(deps.db, teamId)]);
  return found.map((row) => presentRule(row, fired.get(row.id)));
}

const capReached = () =>
  badRequest(`A workspace can have at most ${MAX_RULES} rules; delete one before adding another`);

/** Checks shape first, then references (the database, then Slack), then stores within the workspace's cap. */
export async function createRule(deps: RuleDeps, teamId: string, userId: string, input: RuleCreate): Promise<Rule> {
  const shape: RuleShape = {
    trigger: input.trigger,
    triggerThreshold: input.trigger_threshold ?? null,
    action: input.action,
    actionTarget: input.action_target,
  };
  checkShape(shape);
  const scheduleId = input.schedule_id ?? null;
  if (scheduleId !== null) await checkSchedule(deps, teamId, scheduleId);
  // Before Slack is asked (checking a channel may join it): a full workspace is refused without side effects.
  if ((await countRules(deps.db, teamId)) >= MAX_RULES) throw capReached();
  await checkTarget(deps, teamId, shape);
  const now = deps.clock.now();
  const row = await deps.db.transaction((tx) =>
    insertRuleCapped(
      tx,
      { teamId, ...shape, scheduleId, active: input.active ?? true, createdBy: userId, createdAt: now, updatedAt: now },
      MAX_RULES,
    ),
  );
  if (!row) throw capReached();
  return presentRule(row);
}

/**
 * The rule as this edit would leave it. A threshold the new trigger does not use is dropped when the edit does not
 * send one (a rule turned into blocker_reported loses its old percentage); one that is sent is checked as sent.
 */
function merged(current: RuleRow, input: RuleUpdate): RuleShape & { scheduleId: string | null; active: boolean } {
  const trigger = input.trigger ?? current.trigger;
  const threshold =
    input.trigger_threshold !== undefined
      ? input.trigger_threshold
      : trigger === "blocker_reported"
        ? null
        : current.triggerThreshold;
  return {
    trigger,
    triggerThreshold: threshold,
    action: input.action ?? current.action,
    actionTarget: input.action_target ?? current.actionTarget,
    scheduleId: input.schedule_id !== undefined ? input.schedule_id : current.scheduleId,
    active: input.active ?? current.active,
  };
}

/**
 * Changes any of the fields; omitted ones stay. The whole resulting rule is checked; references only when they
 * change (pausing a rule asks Slack nothing). The write lands only over the version that was checked, so two
 * admins editing at once can never store a combination neither of them checked.
 */
export async function updateRule(deps: RuleDeps, teamId: string, rawId: string, input: RuleUpdate): Promise<Rule> {
  const id = ruleId(rawId);
  for (let attempt = 0; attempt < MAX_EDIT_ATTEMPTS; attempt++) {
    const current = await selectRule(deps.db, teamId, id);
    if (!current) throw notFound("Rule not found");
    const next = merged(current, input);
    checkShape(next);
    if (next.scheduleId !== null && next.scheduleId !== current.scheduleId) {
      await checkSchedule(deps, teamId, next.scheduleId);
    }
    if (next.action !== current.action || next.actionTarget !== current.actionTarget) {
      await checkTarget(deps, teamId, next);
    }
    const patch: RulePatch = {
      trigger: next.trigger,
      triggerThreshold: next.triggerThreshold,
      action: next.action,
      actionTarget: next.actionTarget,
      scheduleId: next.scheduleId,
      active: next.active,
    };
    const saved = await updateRuleRow(deps.db, teamId, id, current.version, patch, deps.clock.now());
    // An edited rule keeps its history: the answer shows the same firings as the list.
    if (saved) return presentRule(saved, (await firingStats(deps.db, teamId, id)).get(id));
  }
  throw conflict("The rule was changed by someone else at the same time; load it again and retry");
}

export async function deleteRule(deps: Pick<Deps, "db">, teamId: string, rawId: string): Promise<{ ok: true }> {
  if (!(await deleteRuleRow(deps.db, teamId, ruleId(rawId)))) throw notFound("Rule not found");
  return { ok: true };
}
