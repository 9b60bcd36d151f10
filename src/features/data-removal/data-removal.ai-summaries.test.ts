import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type TestApp, useTestApp } from "../../../test/support/app.ts";
import { createSchedule, seedRun } from "../../../test/support/factories.ts";
import { useMcpClients } from "../../../test/support/mcp-client.ts";
import { aiDigestSummaries, aiSummaries, standupRuns } from "../../db/schema.ts";
import { createKey } from "../mcp-keys/index.ts";

const A = "T0DAIA";
const B = "T0DAIB";
const ADMIN = "U0DAIADMIN";
const GONE = "U0DAIGONE";
const PEER = "U0DAIPEER";
const NAMING = "Gone Person is blocked on the VPN; Peer Person shipped the page.";

/** A closed run answered by GONE and PEER, with a posted AI summary and a digest summary naming GONE by name. */
async function seedSummaries(t: TestApp, teamId: string): Promise<{ runId: number; failedRunId: number }> {
  const db = t.deps.db;
  await t.installTeam(teamId);
  await t.addMember(teamId, ADMIN, { role: "admin" });
  await t.addMember(teamId, GONE, { realName: "Gone Person" });
  await t.addMember(teamId, PEER, { realName: "Peer Person" });
  const scheduleId = await createSchedule(db, t.clock, { teamId, channelId: "C0DAI", time: "09:00" });
  for (const date of ["2026-03-02", "2026-03-03"]) {
    await seedRun(db, {
      teamId,
      scheduleId,
      date,
      asked: [GONE, PEER],
      answers: { [GONE]: { answers: ["a", "b", "VPN"] }, [PEER]: { answers: ["c", "d", "none"] } },
    });
  }
  const runs = await db
    .select({ id: standupRuns.id, date: standupRuns.localDate })
    .from(standupRuns)
    .where(eq(standupRuns.teamId, teamId))
    .orderBy(standupRuns.localDate);
  const [first, second] = runs.map((r) => r.id);
  const at = new Date("2026-03-03T00:01:00Z");
  const base = { teamId, scheduleId, createdAt: at, finishedAt: at, model: "fake-model-1" };
  await db.insert(aiSummaries).values([
    { ...base, runId: first!, standupDate: "2026-03-02", status: "posted", text: NAMING, tokens: 300 },
    { ...base, runId: second!, standupDate: "2026-03-03", status: "failed", error: "timeout", tokens: 40 },
  ]);
  await db
    .insert(aiDigestSummaries)
    .values({ ...base, weekStart: "2026-03-02", status: "posted", text: NAMING, tokens: 500 });
  return { runId: first!, failedRunId: second! };
}

describe("deleting a removed member's data: AI summaries", async () => {
  const t: TestApp = await useTestApp();
  const a = await seedSummaries(t, A);
  const b = await seedSummaries(t, B);
  const mcp = await useMcpClients(t);
  const client = await mcp.connect((await createKey(t.deps, A, ADMIN, { name: "ai" })).key);

  it("clears every AI summary text of the workspace (they may name them), so get_summary shows none; others stay", async () => {
    const before = await mcp.call(client, "get_summary", { run_id: a.runId });
    expect(before.json.ai_summary).toMatchObject({ text: NAMING });

    await t.deps.db.execute(sql`update members set active = false where team_id = ${A} and user_id = ${GONE}`);
    const cookie = await t.signIn(A, ADMIN);
    const res = await t.inject({ method: "DELETE", url: `/dashboard/api/members/${GONE}/data`, headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json().changed).toMatchObject({ "ai_summaries.text": 1, "ai_digest_summaries.text": 1 });

    const runRows = await t.deps.db
      .select()
      .from(aiSummaries)
      .where(eq(aiSummaries.teamId, A))
      .orderBy(aiSummaries.standupDate);
    expect(runRows).toEqual([
      expect.objectContaining({ runId: a.runId, text: null, status: "removed", error: "member_data_removed" }),
      // A failed attempt had no text: it keeps its reason.
      expect.objectContaining({ runId: a.failedRunId, text: null, status: "failed", error: "timeout" }),
    ]);
    const [digest] = await t.deps.db.select().from(aiDigestSummaries).where(eq(aiDigestSummaries.teamId, A));
    expect(digest).toMatchObject({ text: null, status: "removed", error: "member_data_removed" });

    const after = await mcp.call(client, "get_summary", { run_id: a.runId });
    expect(after.isError).toBe(false);
    expect(after.json.ai_summary).toBeNull();
    expect(JSON.stringify(after.json)).not.toContain("Gone Person");

    // The other workspace's summaries are untouched.
    const [otherRun] = await t.deps.db
      .select()
      .from(aiSummaries)
      .where(and(eq(aiSummaries.teamId, B), eq(aiSummaries.runId, b.runId)));
    expect(otherRun).toMatchObject({ status: "posted", text: NAMING });
    const [otherDigest] = await t.deps.db.select().from(aiDigestSummaries).where(eq(aiDigestSummaries.teamId, B));
    expect(otherDigest).toMatchObject({ status: "posted", text: NAMING });
  });
});
