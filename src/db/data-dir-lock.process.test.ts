import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lockFileOf } from "./data-dir-lock.ts";

const TSX = import.meta.resolve("tsx");
const LOCK_MODULE = import.meta.resolve("./data-dir-lock.ts");

/**
 * A process that takes the lock at `at` (ms since the epoch), says "held" or "refused", and holds it until its
 * stdin ends (after every contender has answered: one slow to start must still find it held).
 */
const CONTENDER = `
const { DataDirInUse, lockDataDir } = await import(${JSON.stringify(LOCK_MODULE)});
const [at, dir] = [Number(process.argv[1]), process.argv[2]];
while (Date.now() < at) {}
let lock;
try {
  lock = lockDataDir(dir, "contender");
  console.log("held");
} catch (err) {
  console.log(err instanceof DataDirInUse ? "refused" : \`error: \${err.message}\`);
}
process.stdin.resume();
await new Promise((resolve) => process.stdin.once("end", resolve));
lock?.release();`;

/** Starts the contenders; resolves with what each said, once all have, and lets them go. */
async function contend(count: number, at: number, dir: string): Promise<string[]> {
  const children = Array.from({ length: count }, () =>
    spawn(process.execPath, ["--import", TSX, "--input-type=module", "-e", CONTENDER, String(at), dir]),
  );
  const closed = children.map((child) => new Promise((resolve) => child.once("close", resolve)));
  const said = children.map(
    (child) =>
      new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.setEncoding("utf8").on("data", (d: string) => {
          out += d;
          if (out.includes("\n")) resolve(out.trim());
        });
        child.stderr.setEncoding("utf8").on("data", (d: string) => {
          out += d;
        });
        child.once("error", reject);
        child.once("close", () => resolve(out.trim()));
      }),
  );
  const outcomes = await Promise.all(said);
  for (const child of children) child.stdin.end();
  await Promise.all(closed);
  return outcomes;
}

describe("processes taking over a stale data directory lock at the same moment", () => {
  const root = mkdtempSync(join(tmpdir(), "upbeat-lock-race-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("exactly one of them holds it; the others are refused naming it", async () => {
    // Each round: a lock left by a process that is gone, and four processes starting on it in the same millisecond
    // (a server restarted by its supervisor while an operator runs npm run backup, say). Several rounds, because
    // each is a race: on two cores, one round in two used to end with two holders or a bare EEXIST.
    for (let round = 0; round < 6; round++) {
      const dir = join(root, `round-${round}`);
      const gone = spawnSync(process.execPath, ["-e", "0"]).pid!;
      writeFileSync(lockFileOf(dir), JSON.stringify({ pid: gone, host: hostname(), what: "server", since: "" }));
      const at = Date.now() + 2_000;
      const outcomes = await contend(4, at, dir);
      expect({ round, outcomes: outcomes.sort() }).toEqual({
        round,
        outcomes: ["held", "refused", "refused", "refused"],
      });
    }
  }, 120_000);
});
