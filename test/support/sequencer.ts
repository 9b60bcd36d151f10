import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Files that take seconds to tens of seconds each: a real browser, or the app in child processes. */
const HEAVY = /\/test\/browser\/|\.process\.test\.ts$/;

/**
 * Vitest runs the files it has timings for longest first (its cache of an earlier run), which keeps both workers busy
 * to the end. Without timings (a fresh clone, as in CI) it runs larger files first, and then small browser files of
 * 20–30 s (every-page-admin is 700 bytes) start last and one worker finishes alone. Here, when a file has no timing,
 * the browser and process files go first (in vitest's order among themselves), then the rest in vitest's order.
 */
export default class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const timed = (f: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${f.project.name}:${relative(this.ctx.config.root, f.moduleId)}`) !==
      undefined;
    if (sorted.every(timed)) return sorted;
    const heavy = (f: TestSpecification) => HEAVY.test(f.moduleId);
    return [...sorted.filter(heavy), ...sorted.filter((f) => !heavy(f))];
  }
}
