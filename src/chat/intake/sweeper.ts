import type { Deps } from "../../deps.ts";
import { type StopTicker, startTicker } from "../../jobs/ticker.ts";
import type { Intake } from "./intake.ts";

/** How often each instance looks for deliveries whose lease or backoff has ended (INTAKE_LEASE_MS is 60 s). */
export const INTAKE_SWEEP_MS = 15_000;

/** Every instance sweeps: rows are taken with `skip locked`, so two sweeps at once never run the same delivery. */
export function startIntakeSweeper(deps: Pick<Deps, "log">, intake: Intake): StopTicker {
  return startTicker(deps.log, "chat intake sweep", INTAKE_SWEEP_MS, () => intake.sweep());
}
