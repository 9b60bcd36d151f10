/**
 * Checks a payload against every Block Kit limit Slack enforces (the fake's own table, written from Slack's
 * reference): a message (`{ text, blocks }`), a view, `{ view }`, or a call the fake recorded.
 */
import { blocksTooLong, messageViolations, viewViolations } from "../../dev/fake-slack/block-kit-limits.ts";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Slack's complaints about the payload, as Slack words them; [] when Slack would take it. */
export function slackLimitViolations(payload: unknown): string[] {
  if (!isObj(payload)) return ["not a payload object"];
  const p = isObj(payload.args) && typeof payload.method === "string" ? payload.args : payload;
  if (p.view !== undefined) return viewViolations(p.view);
  if (p.type === "modal" || p.type === "home") return viewViolations(p);
  const found = messageViolations(p);
  if (blocksTooLong(p.blocks)) found.push("msg_blocks_too_long: too much text in the blocks together");
  return found;
}

export function assertWithinSlackLimits(payload: unknown): void {
  const found = slackLimitViolations(payload);
  if (found.length > 0) throw new Error(`payload breaks Slack's limits:\n  ${found.join("\n  ")}`);
}
