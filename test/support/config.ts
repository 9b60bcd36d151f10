import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../src/config.ts";

/** What loadConfig refuses in `env`, by message (none: []); development secrets go to a fresh temp folder. */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env, { dataDir: mkdtempSync(join(tmpdir(), "cfg-")) });
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}
