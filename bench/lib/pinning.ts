/** CPU pinning with taskset: the load generator on one CPU, the server under test on another. */
import { spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";

export interface Pinning {
  pin: boolean;
  why: string;
  clientCpu: string;
  serverCpu: string;
}

/** Pins this process (load generator) to CPU 0 and asks for servers on CPU 1, when taskset and 2 CPUs exist. */
export function pinning(disabled: boolean): Pinning {
  const clientCpu = "0";
  const serverCpu = "1";
  const off = (why: string): Pinning => ({ pin: false, why, clientCpu, serverCpu });
  if (disabled) return off("--no-pin given");
  const probe = spawnSync("taskset", ["-c", `${clientCpu},${serverCpu}`, "true"], { stdio: "ignore" });
  if (probe.error) return off("taskset not found");
  if (probe.status !== 0) return off(`CPUs ${clientCpu},${serverCpu} not both available`);
  // Asked before this process pins itself (availableParallelism follows the CPU affinity).
  if (availableParallelism() < 2) return off("fewer than 2 CPUs available");
  // -a: every thread of this process (libuv pool, V8 platform threads) stays on the client CPU.
  const self = spawnSync("taskset", ["-a", "-p", "-c", clientCpu, String(process.pid)], { stdio: "ignore" });
  if (self.status !== 0) return off("could not pin the load generator");
  return { pin: true, why: "", clientCpu, serverCpu };
}
