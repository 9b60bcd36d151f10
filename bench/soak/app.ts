/**
 * The soak's dealings with the app outside the load: its log (warnings by kind, stray output), credentials
 * made the way people make them (login tokens, MCP keys through the API), and what it stored in the database.
 */
import pg from "pg";
import { signIn } from "../seed/harness.ts";
import type { Team } from "./world.ts";

/** The app's warnings (pino JSON at level 40) by message and error, and any output that is not a log line. */
export class AppLog {
  readonly warnings = new Map<string, number>();
  readonly other: string[] = [];
  line = (line: string): void => {
    if (!line.startsWith("{")) {
      if (!/^ready \d+$/.test(line) && this.other.length < 20) this.other.push(line.slice(0, 200));
      return;
    }
    try {
      const rec = JSON.parse(line) as { level?: number; msg?: string; err?: unknown };
      if ((rec.level ?? 0) !== 40) return;
      const err = rec.err === undefined ? "" : `: ${JSON.stringify(rec.err).slice(0, 120)}`;
      const key = `${rec.msg ?? "?"}${err}`;
      this.warnings.set(key, (this.warnings.get(key) ?? 0) + 1);
    } catch {
      if (this.other.length < 20) this.other.push(line.slice(0, 200));
    }
  };
}

/** Signs in each team's admin `sessions` times (login tokens) and creates `keys` MCP keys through the dashboard API. */
export async function credentials(port: number, teams: Team[], sessions: number, keys: number): Promise<void> {
  for (const team of teams) {
    for (let s = 0; s < sessions; s++) team.cookies.push(await signIn(port, team.id, team.adminUserId));
    for (let k = 1; k <= keys; k++) {
      const res = await fetch(`http://127.0.0.1:${port}/dashboard/api/mcp/keys`, {
        method: "POST",
        headers: { cookie: team.cookies[0]!, "content-type": "application/json" },
        body: JSON.stringify({ name: `soak ${k}` }),
      });
      const body = (await res.json()) as { key?: string };
      if (res.status !== 201 || !body.key) throw new Error(`creating an MCP key answered ${res.status}`);
      team.mcpKeys.push(body.key);
    }
  }
}

/** The seeded schedule of each team (the standups list, as the dashboard reads it). */
export async function seededSchedules(port: number, teams: Team[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const team of teams) {
    const res = await fetch(`http://127.0.0.1:${port}/dashboard/api/standups`, {
      headers: { cookie: team.cookies[0]! },
    });
    const list = (await res.json()) as { id: string }[];
    if (res.status !== 200 || !list[0]) throw new Error(`GET /dashboard/api/standups answered ${res.status}`);
    out.set(team.id, list[0].id);
  }
  return out;
}

/** What the app stored during the soak, from the database: a check that the load did work, not just 200s. */
export async function databaseCounts(url: string, since: Date): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {});
  await client.connect();
  try {
    const q = async (text: string) => (await client.query<{ n: number }>(text, [since])).rows[0]?.n ?? 0;
    const runs = await q("select count(*)::int as n from standup_runs where created_at >= $1");
    const asked = await q(
      "select count(*)::int as n from run_participants p join standup_runs r on r.id = p.run_id where r.created_at >= $1",
    );
    const answered = await q("select count(*)::int as n from responses where submitted_at >= $1");
    const edited = await q("select count(*)::int as n from responses where edited_at >= $1");
    const events = await q("select count(*)::int as n from chat_events where received_at >= $1");
    const jobs = await client.query<{ name: string; state: string; n: number }>(
      `select name, state::text as state, count(*)::int as n from pgboss.job
       where created_on >= $1 group by 1, 2 order by 1, 2`,
      [since],
    );
    return [
      `database: ${runs} runs opened, ${asked} participants, ${answered} responses submitted (${edited} edited), ${events} distinct events claimed`,
      `jobs: ${jobs.rows.map((j) => `${j.name} ${j.state} ${j.n}`).join(", ") || "none"}`,
    ];
  } catch (err) {
    return [`database counts failed: ${String(err)}`];
  } finally {
    await client.end().catch(() => {});
  }
}
