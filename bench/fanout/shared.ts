/** Constants shared by the fan-out benchmark's orchestrator (run.ts) and its app instances (instance.ts). */
import { TICK_MS } from "../../src/features/standups/index.ts";

/** Fixed, bench-only secrets: the orchestrator encrypts the bot tokens with a key derived from this one. */
export const BENCH_SESSION_SECRET_KEY = "bench-fanout-session-secret-key-0123456789abcdefghij";
export const BENCH_SIGNING_SECRET = "bench-fanout-signing-secret-0123456789abcdef";

/** What instance.ts prints on stdout once listening: port and the epoch ms its scheduler started. */
export const READY = /^ready (\d+) (\d+)$/;

/** The scheduler's interval, to explain claim latency. */
export const TICK_S = TICK_MS / 1000;

/** Text of the ask DM and of the run's parent message (src/features/standups/messages.ts). */
export const ASK_PREFIX = "Time for standup";
export const PARENT_PREFIX = "Standup for";

/** IPC messages the orchestrator sends an instance (for --cpu-prof). */
export type InstanceRequest = { type: "profile-start" } | { type: "profile-stop"; file: string };
export interface InstanceAnswer {
  type: InstanceRequest["type"];
  error?: string;
}
