import { and, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { llmEnv, startFakeLlm } from "../../../test/support/fake-llm.ts";
import { submitStandup } from "../../../test/support/standup-answers.ts";
import type { QuestionDetail } from "../../contract/questions.ts";
import { aiDigestSummaries, aiSummaries, anonymousAnswers, schedules } from "../../db/schema.ts";
import { tick } from "../standups/index.ts";
import { weekAiSummaries } from "./digest.ts";

const TEAM = "T0AIAN";
const CHANNEL = "C0AIAN";
const ANA = "U0AIANA1";
const DETAILS: QuestionDetail[] = [
  { text: "What did you do yesterday?", type: "text", required: true, anonymous: false },
  { text: "What will you do today?", type: "text", required: true, anonymous: false },
  { text: "Any blockers?", type: "text", required: true, anonymous: false },
  { text: "How do you really feel about the team?", type: "text", required: true, anonymous: true },
];

/**
 * Anonymous answers given through the real modal submission (stored apart from the member) never reach the model:
 * neither in the run's prompt at close nor in the weekly digest's.
 */
describe("AI summaries and anonymous answers", async () => {
  const llm = await startFakeLlm();
  afterAll(() => llm.close());
  const t = await useTestApp({ env: llmEnv(llm), clock: undefined });
  await t.installTeam(TEAM);
  t.fake.addUser(TEAM, { id: ANA, name: "ana", real_name: "Ana Lima" });
  await t.addMember(TEAM, ANA, { realName: "Ana Lima" });
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "anon", members: [ANA, `B${TEAM.slice(1)}BOT`] });
  const scheduleId = await createSchedule(t.deps.db, t.clock, {
    teamId: TEAM,
    channelId: CHANNEL,
    time: "09:00",
    questions: DETAILS.map((d) => d.text),
  });
  await t.deps.db
    .update(schedules)
    .set({ aiSummary: true, questionDetails: DETAILS })
    .where(eq(schedules.id, scheduleId));

  it("leaves the anonymous answer out of the run's prompt and the weekly digest's", async () => {
    t.clock.set("2026-03-02T09:00:03Z");
    const [runId] = (await tick(t.deps)).started;
    await t.deps.queue.drain();
    const res = await submitStandup(t, TEAM, ANA, runId!, [
      "NAMED-YESTERDAY",
      "NAMED-TODAY",
      "none",
      "ANONYMOUS-FEELING-SECRET",
    ]);
    expect(res.statusCode).toBe(200);
    await t.deps.queue.drain();
    // The submission took it, as anonymous: stored apart, without the member.
    const stored = await t.deps.db.select().from(anonymousAnswers).where(eq(anonymousAnswers.teamId, TEAM));
    expect(stored.map((a) => a.value)).toEqual(["ANONYMOUS-FEELING-SECRET"]);

    t.clock.set("2026-03-03T00:00:10Z");
    await tick(t.deps);
    await t.deps.queue.drain();
    await t.deps.queue.drain();
    expect(llm.requests).toHaveLength(1);
    const runPrompt = JSON.stringify(llm.requests[0]);
    expect(runPrompt).toContain("NAMED-YESTERDAY");
    expect(runPrompt).toContain("NAMED-TODAY");
    expect(runPrompt).not.toContain("ANONYMOUS-FEELING-SECRET");
    const [row] = await t.deps.db
      .select()
      .from(aiSummaries)
      .where(and(eq(aiSummaries.teamId, TEAM), eq(aiSummaries.runId, runId!)));
    expect(row?.status).toBe("posted");

    const week = await weekAiSummaries(t.deps, TEAM, { from: "2026-03-02", to: "2026-03-08" }, [scheduleId]);
    expect(week.get(scheduleId)?.text).toBe("The team shipped <things> & more.");
    expect(llm.requests).toHaveLength(2);
    const weekPrompt = JSON.stringify(llm.requests[1]);
    expect(weekPrompt).toContain("NAMED-YESTERDAY");
    expect(weekPrompt).not.toContain("ANONYMOUS-FEELING-SECRET");
    const digestRows = await t.deps.db.select().from(aiDigestSummaries).where(eq(aiDigestSummaries.teamId, TEAM));
    expect(digestRows.map((r) => r.status)).toEqual(["posted"]);
  });
});
