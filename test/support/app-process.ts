/**
 * A real Upbeat instance in a child process, started as production starts it (src/main.ts: configuration from the
 * environment, migrations, queue workers with the production settings, the scheduler, the HTTP server), so a test can
 * kill it with SIGKILL. Its JSON log lines are kept for the test's failure messages.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const MAIN = fileURLToPath(new URL("../../src/main.ts", import.meta.url));
const TSX = import.meta.resolve("tsx");
/** What src/main.ts logs once it listens. */
const READY_MSG = "Upbeat is running";

export interface AppProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** Resolves when the process has exited, however. */
  readonly exited: Promise<void>;
  /** Where it listens, e.g. `http://127.0.0.1:41234` (from its "Upbeat is running" line). */
  readonly address: string;
  /** Its output so far, one line each (JSON log lines, and anything else it printed). */
  readonly lines: string[];
  /** The last lines, for a failure message. */
  tail(n?: number): string;
  /** SIGTERM (a graceful shutdown), then SIGKILL after timeoutMs. */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * Starts src/main.ts under tsx, or with `entry` a compiled main.js (`npm run build`'s dist/main.js) with plain Node.
 * `cwd`: where it runs (its ./data lives there); `preload`: modules Node imports first (test/support/clock-shift.ts).
 */
export function startAppProcess(
  name: string,
  env: Record<string, string>,
  timeoutMs = 45_000,
  opts: { entry?: string; cwd?: string; preload?: string[] } = {},
): Promise<AppProcess> {
  const preload = (opts.preload ?? []).flatMap((m) => ["--import", m]);
  const args = opts.entry ? [...preload, opts.entry] : ["--import", TSX, ...preload, MAIN];
  const child = spawn(process.execPath, args, {
    cwd: opts.cwd ?? ROOT,
    // Only what the app reads, plus PATH: nothing of the test runner's environment leaks in.
    env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  let address = "";
  const proc: AppProcess = {
    name,
    get address() {
      return address;
    },
    child,
    exited,
    lines,
    tail: (n = 15) => lines.slice(-n).join("\n"),
    async stop(stopMs = 15_000) {
      if (gone()) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), stopMs);
      await exited;
      clearTimeout(timer);
    },
  };
  return new Promise<AppProcess>((resolve, reject) => {
    const timer = setTimeout(() => fail(`no "${READY_MSG}" within ${timeoutMs / 1000} s`), timeoutMs);
    function fail(why: string) {
      clearTimeout(timer);
      if (!gone()) child.kill("SIGKILL");
      reject(new Error(`app process ${name} did not start: ${why}\n${proc.tail()}`));
    }
    const onLine = (line: string) => {
      lines.push(line);
      if (line.includes(READY_MSG)) {
        clearTimeout(timer);
        address = String((JSON.parse(line) as { address?: string }).address ?? "");
        resolve(proc);
      }
    };
    createInterface({ input: child.stdout! }).on("line", onLine);
    createInterface({ input: child.stderr! }).on("line", onLine);
    child.once("error", (err) => fail(err.message));
    child.once("exit", (code, signal) => fail(`exited (${signal ?? `code ${code}`})`));
  });
}
