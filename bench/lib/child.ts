/** Runner-side handling of a benchmark's server child process: IPC request/answer and a bounded stop. */
import type { ChildProcess } from "node:child_process";

/**
 * Sends msg over child's IPC channel and waits for the answer with the same type (see
 * lib/app-child.ts answerIpc); rejects on `{ error }` or after timeoutMs. `who` names the child in errors.
 */
export function askChild<A extends { type?: unknown; error?: unknown }>(
  child: ChildProcess,
  msg: { type: string },
  who: string,
  timeoutMs: number,
): Promise<A> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off("message", onMessage);
      reject(new Error(`no answer to ${msg.type} from ${who}`));
    }, timeoutMs);
    const onMessage = (answer: A) => {
      if (answer?.type !== msg.type) return;
      clearTimeout(timer);
      child.off("message", onMessage);
      if (answer.error !== undefined) reject(new Error(`${msg.type} failed: ${String(answer.error)}`));
      else resolve(answer);
    };
    child.on("message", onMessage);
    child.send(msg);
  });
}

/**
 * SIGTERM, then SIGKILL when child has not exited within timeoutMs. The child is added to `stopping` first,
 * so its exit handler can tell a requested stop from a crash. `who` names it in the message.
 */
export async function stopChild(
  child: ChildProcess,
  exited: Promise<void>,
  stopping: Set<ChildProcess>,
  who: string,
  timeoutMs: number,
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  stopping.add(child);
  child.kill("SIGTERM");
  const timedOut = await Promise.race([
    exited.then(() => false),
    new Promise<boolean>((r) => setTimeout(() => r(true), timeoutMs).unref()),
  ]);
  if (timedOut) {
    process.stderr.write(`${who} did not stop within ${timeoutMs / 1000} s; killing it\n`);
    child.kill("SIGKILL");
    await exited;
  }
}
