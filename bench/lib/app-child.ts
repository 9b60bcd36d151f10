/**
 * Pieces shared by the app processes the benchmark runners start (ack/app-server.ts,
 * seed/app-server.ts, fanout/instance.ts): configuration loading, a CPU profiler driven over IPC and
 * the IPC request/answer loop.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { ConfigError, loadConfig } from "../../src/config.ts";

/** loadConfig(env), or the configuration problems on stderr and exit code 1. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv): ReturnType<typeof loadConfig> {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      for (const p of err.problems) process.stderr.write(`config error: ${p}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/** A V8 CPU profile of this process through the inspector: start(), then stop(file) writes the .cpuprofile. */
export class CpuProfiler {
  #session: Session | undefined;

  constructor(private readonly intervalUs: number) {}

  async start(): Promise<void> {
    const session = new Session();
    session.connect();
    this.#session = session;
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: this.intervalUs });
    await session.post("Profiler.start");
  }

  async stop(file: string | undefined): Promise<void> {
    if (!this.#session || !file) throw new Error("no profile running or no file given");
    const { profile } = await this.#session.post("Profiler.stop");
    this.#session.disconnect();
    this.#session = undefined;
    writeFileSync(file, JSON.stringify(profile));
  }
}

/** Answers each IPC message `{ type }` with `{ type, ...answer }`, or `{ type, error }` when handle throws. */
export function answerIpc<M extends { type?: string }>(handle: (msg: M) => Promise<object>): void {
  process.on("message", (msg: M) => {
    handle(msg).then(
      (answer) => process.send?.({ type: msg.type, ...answer }),
      (err: unknown) => process.send?.({ type: msg.type, error: String(err) }),
    );
  });
}
