import { and, eq } from "drizzle-orm";
import { standupRuns } from "../src/db/schema.ts";
import type { Deps } from "../src/deps.ts";
import { workspaceToday } from "../src/features/calendar/index.ts";
import { giveKudos } from "../src/features/kudos/index.ts";
import { createRule, listRules } from "../src/features/rules/index.ts";
import { listScheduleRows, localDateOf } from "../src/features/schedules/index.ts";
import { runNow } from "../src/features/standups/index.ts";
import { createEndpoint, listEndpoints } from "../src/features/webhooks/index.ts";
import { ADMIN, DEMO_PEOPLE, DEMO_TEAM, GENERAL_CHANNEL, PRODUCT_CHANNEL } from "./people.ts";
import { PLATFORM_STANDUP, PRODUCT_STANDUP } from "./seed.ts";

/** The demo rule: a product standup day under this participation posts in #team-standup. */
export const RULE_THRESHOLD = 90;

/**
 * What must go through the running service (its rule engine, webhook queue and kudos path), after buildApp and
 * before app.start: the rule and the webhook endpoint exist before the scheduler's first tick closes the last
 * product run, so that close fires the rule and is delivered to the receiver. Each part is made once.
 */
export async function seedRuleAndWebhook(deps: Deps, receiverUrl: string): Promise<void> {
  const product = (await listScheduleRows(deps, DEMO_TEAM.id)).find((s) => s.name === PRODUCT_STANDUP);
  if (product && (await listRules(deps, DEMO_TEAM.id)).length === 0) {
    await createRule(deps, DEMO_TEAM.id, ADMIN.id, {
      trigger: "participation_below",
      trigger_threshold: RULE_THRESHOLD,
      action: "post_to_channel",
      action_target: PRODUCT_CHANNEL.id,
      schedule_id: product.id,
      active: true,
    });
  }
  if (!(await listEndpoints(deps, DEMO_TEAM.id)).some((e) => e.url === receiverUrl)) {
    await createEndpoint(deps, DEMO_TEAM.id, ADMIN.id, { url: receiverUrl });
  }
}

/** Today's kudos through the product's own path (events, so webhook deliveries); once per day whatever the starts. */
export async function giveTodaysKudos(deps: Deps): Promise<void> {
  const today = await workspaceToday(deps, DEMO_TEAM.id);
  const pairs: [number, number, string][] = [
    [2, 1, "Thanks for pairing on the payments refactor, Lucía!"],
    [9, 0, "For the calm release coordination yesterday"],
  ];
  for (const [i, [from, to, message]] of pairs.entries()) {
    await giveKudos(deps, {
      teamId: DEMO_TEAM.id,
      fromUser: DEMO_PEOPLE[from]!.id,
      receivers: [DEMO_PEOPLE[to]!.id],
      message,
      channelId: GENERAL_CHANNEL.id,
      source: "command",
      sourceKey: `cmd:demo-live-${today}-${i}`,
    });
  }
}

/**
 * Today's run of each demo standup, opened through Run now when it has none yet: whatever the hour (or the day) the
 * demo starts, its first screen shows both standups running and the simulated members answering. Run now asks
 * everyone at once (also on the member-timezone standup) and claims the day, so the scheduled time does not run it
 * again; a second start the same day finds the run and opens nothing.
 */
export async function openTodaysRuns(deps: Deps): Promise<void> {
  const schedules = (await listScheduleRows(deps, DEMO_TEAM.id)).filter(
    (s) => s.active && (s.name === PRODUCT_STANDUP || s.name === PLATFORM_STANDUP),
  );
  for (const s of schedules) {
    const today = localDateOf(deps.clock.now(), s.scheduleTz);
    const [run] = await deps.db
      .select({ id: standupRuns.id })
      .from(standupRuns)
      .where(
        and(eq(standupRuns.teamId, DEMO_TEAM.id), eq(standupRuns.scheduleId, s.id), eq(standupRuns.localDate, today)),
      )
      .limit(1);
    if (!run) await runNow(deps, DEMO_TEAM.id, s.id);
  }
}
