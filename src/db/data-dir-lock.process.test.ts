import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lockFileOf } from "./data-dir-lock.ts";

const TSX = import.meta.resolve("tsx");
const LOCK_MODULE = import.meta.resolve("./data-dir-lock.ts");

/** A process that takes the lock at `at` (ms since the epoch), says "held" or "refused", and holds it 1.5 s. */
const CONTENDER = `
const { DataDirInUse, lockDataDir } = await import(${JSON.stringify(LOCK_MODULE)});
const [at, dir] = [Number(process.argv[1]), process.argv[2]];
while (Date.now() < at) {}
try {
  const lock = lockDataDir(dir, "contender");
  console.log("held");
  await new Promise((resolve) => setTimeout(resolve, 1500));
  lock.release();
} catch (err) {
  console.log(err instanceof DataDirInUse ? "refused" : \`error: \${err.message}\`);
}`;

function contend(at: number, dir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", TSX, "--input-type=module", "-e", CONTENDER, String(at), dir]);
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      out += d;
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      out += d;
    });
    child.once("error", reject);
    child.once("close", () => resolve(out.trim()));
  });
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
      const outcomes = await Promise.all([1, 2, 3, 4].map(() => contend(at, dir)));
      expect({ round, outcomes: outcomes.sort() }).toEqual({
        round,
        outcomes: ["held", "refused", "refused", "refused"],
      });
    }
  }, 120_000);
});
