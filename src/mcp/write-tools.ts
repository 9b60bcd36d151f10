import type { Tool } from "./tool-kit.ts";
import { giveKudosTool, resolveBlockerTool, setTimeOffTool } from "./write-tools.other.ts";
import { skipStandupTool, submitStandupTool } from "./write-tools.standup.ts";

export { MCP_WRITES_PER_MINUTE } from "./write-tools.guard.ts";

/** The write tools, listed and callable only with standups:write (see toolsFor). */
export const WRITE_TOOLS: readonly Tool[] = [
  submitStandupTool,
  skipStandupTool,
  setTimeOffTool,
  giveKudosTool,
  resolveBlockerTool,
];
