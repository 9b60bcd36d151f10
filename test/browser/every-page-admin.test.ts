import { describe, expect, it } from "vitest";
import { hasChromium } from "../support/browser.ts";
import { useEveryPageBrowser, walkNavigation } from "../support/every-page.ts";
import { ADMIN, TEAM } from "../support/every-page-seed.ts";

// Every page the admin sees, at both widths (one of the three every-page files; test/support/every-page.ts).
describe.runIf(hasChromium)("every page, both widths, as admin", () => {
  const web = useEveryPageBrowser();

  for (const size of ["1280", "390"] as const) {
    it(`as admin at ${size} px: every page through the navigation, clean and accessible`, async () => {
      expect(await walkNavigation(web, TEAM, "admin", ADMIN, size)).toEqual([]);
    }, 60_000);
  }
});
