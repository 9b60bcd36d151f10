import { describe, expect, it } from "vitest";
import { FORMER_MEMBER, foldText, initials, personMatches, personName } from "../../web/src/lib/person-text.ts";

describe("the people picker's search and names", () => {
  const lucia = { real_name: "Lucía Fernández", display_name: "lucia.f" };

  it("finds people by real name or handle, ignoring accents and case", () => {
    expect(foldText("Lucía FERNÁNDEZ")).toBe("lucia fernandez");
    for (const q of ["lucia", "LUCÍA", "fernandez", "lucia.f", "@lucia", "  cía "])
      expect(personMatches(lucia, q), q).toBe(true);
    expect(personMatches(lucia, "maya")).toBe(false);
    expect(personMatches(lucia, "")).toBe(true);
  });

  it("initials stand in for a missing picture", () => {
    expect(initials("Lucía Fernández")).toBe("LF");
    expect(initials("Maya Grace Okafor")).toBe("MO");
    expect(initials("maya")).toBe("M");
    expect(initials("  ")).toBe("?");
  });

  it("a person without a known name is a former member, never an id", () => {
    expect(personName(lucia)).toBe("Lucía Fernández");
    expect(personName({ real_name: "", display_name: "maya" })).toBe("maya");
    expect(personName(undefined)).toBe(FORMER_MEMBER);
  });
});
