/**
 * bench:mcp's harness on a tiny seed (20 members × 2 weeks, 20 calls per scenario), against the app in
 * process on the test database (PGlite, or PostgreSQL with TEST_DATABASE_URL), so the bench cannot rot:
 * every tool the server lists has a scenario, every scenario answers a success with the bench's arguments,
 * the measurements and the verdicts come out, and an error result is caught by the probe.
 */
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../src/db/client.ts";
import { encryptSecret, sha256Hex } from "../../src/lib/crypto.ts";
import { useTestApp } from "../../test/support/app.ts";
import { isoDate, seedWorkspace, shiftIsoDate } from "../seed/seed.ts";
import {
  concurrent,
  createBenchKeys,
  KeyRing,
  listTools,
  type Measured,
  probe,
  report,
  type Scenario,
  scenarios,
  sequential,
  uncovered,
  verdicts,
} from "./harness.ts";

const TEAM = "T0BENCH";
const TOKEN = "xoxb-bench-smoke";
const BOT = "B0BENCHBOT";

describe("bench:mcp harness (smoke)", async () => {
  const t = await useTestApp();
  const today = isoDate(t.clock.now());
  const seeded = await seedWorkspace(t.database, {
    teamId: TEAM,
    members: 20,
    fromDate: shiftIsoDate(today, -13),
    toDate: today,
    botTokenEnc: encryptSecret(t.deps.keys.tokenEncryption, TOKEN),
  });
  t.fake.addTeam({ id: TEAM, name: `Bench ${TEAM}`, botToken: TOKEN, botUserId: BOT });
  t.fake.addChannel(TEAM, { id: "C0BENCH1", name: "standup", members: [BOT] });
  const ring = new KeyRing(await createBenchKeys(t.database, TEAM, seeded.adminUserId, 20));
  await t.app.server.listen({ port: 0, host: "127.0.0.1" });
  const port = (t.app.server.server.address() as AddressInfo).port;
  const list = scenarios("U00000003", today, seeded.scheduleIds[0]!);

  it("stores the keys hashed, as the product does", async () => {
    const stored = await rows<{ key_hash: string }>(
      t.deps.db,
      sql`select key_hash from mcp_keys where team_id = ${TEAM}`,
    );
    expect(stored).toHaveLength(20);
    expect(stored.map((r) => r.key_hash).sort()).toEqual(ring.keys.map((k) => sha256Hex(k)).sort());
  });

  it("has a scenario for every tool of tools/list, and each answers a success", async () => {
    const names = await listTools(port, ring.take());
    expect(names.length).toBeGreaterThanOrEqual(9);
    expect(uncovered(names, list)).toEqual([]);
    expect(uncovered([...names, "get_new_tool"], list)).toEqual([
      "tools/list has get_new_tool, the bench has no scenario for it",
    ]);
    for (const s of list) {
      const p = await probe(port, ring.take(), s, names);
      expect(p.problem, s.label).toBeUndefined();
    }
  });

  it("catches an error result, an unknown tool and a search that finds nothing", async () => {
    const bad: Scenario[] = [
      {
        label: "bad date",
        method: "tools/call",
        tool: "get_standups",
        args: { from_date: "2026-02-30" },
        kind: "small",
      },
      { label: "no such tool", method: "tools/call", tool: "get_nothing", args: {}, kind: "small" },
      { label: "no match", method: "tools/call", tool: "search_standups", args: { query: "zyxwvu" }, kind: "report" },
    ];
    const [date, tool, search] = await Promise.all(bad.map((s) => probe(port, ring.take(), s)));
    expect(date!.problem).toMatch(/^tool error: from_date 2026-02-30 is not a real date/);
    expect(tool!.problem).toMatch(/get_nothing/);
    expect(search!.problem).toMatch(/found nothing/);
  });

  it("measures each scenario and reports p50 against ping with verdicts for the small tools", async () => {
    const measured: Measured[] = [];
    for (const s of list) {
      const baseline = s.kind === "baseline" ? {} : { baseline: list[0]! };
      const seq = await sequential(port, ring, s, { warmup: 2, calls: 20, maxSeconds: 30, ...baseline });
      expect(seq.bad, s.label).toBe(0);
      expect(seq.latencies, s.label).toHaveLength(20);
      expect(seq.baseline?.length, s.label).toBe(s.kind === "baseline" ? undefined : 20);
      measured.push({ scenario: s, bytes: 100, seq });
    }
    const conc = await concurrent(port, ring, list[0]!, 2, { amount: 20 });
    expect(conc.bad).toBe(0);
    expect(conc.latencies.length).toBeGreaterThanOrEqual(20);
    measured[0]!.conc = conc;

    const v = verdicts(measured);
    expect(v.map((x) => x.label)).toEqual(list.filter((s) => s.kind === "small").map((s) => s.label));
    for (const x of v) {
      expect(Number.isFinite(x.ratio) && x.ratio > 0).toBe(true);
      expect(x.pass).toBe(x.ratio <= 2);
    }
    // The ratio is against the ping calls paired with the tool's, not the ping run's.
    const first = measured[2]!;
    const paired = { ...first, seq: { ...first.seq, baseline: first.seq.baseline!.map((ms) => ms * 1000) } };
    expect(verdicts([measured[0]!, paired])[0]!.ratio).toBeCloseTo(v[0]!.ratio / 1000, 6);
    const text = report(measured, 2);
    for (const s of list) expect(text).toContain(s.label);
    expect(text).toMatch(/get_standups\s+small .* (PASS|FAIL)/);
    expect(text).toMatch(/get_members\s+report .* report/);
    // Every scenario measured twice over (its calls and the paired pings): on a busy 2-core machine this takes a while.
  }, 240_000);
});
