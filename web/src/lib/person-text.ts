/** What the people picker searches and shows, with no imports: the server's tests import it too. */

/** The fields of a person these read (the people list's shape). */
interface Named {
  real_name: string;
  display_name: string;
}

/** What a person whose record is gone is called: their Slack id means nothing to a reader. */
export const FORMER_MEMBER = "Former member";

/** Lower case without accents, so "lucia" finds "Lucía" and "FERNANDEZ" finds "Fernández". */
export function foldText(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** Whether a person matches a search by real name or Slack display name (the handle), accents ignored. */
export function personMatches(person: Named, search: string): boolean {
  const q = foldText(search.trim().replace(/^@/, ""));
  if (!q) return true;
  return foldText(`${person.real_name} ${person.display_name}`).includes(q);
}

/** "Lucía Fernández" → "LF": the avatar's stand-in when Slack has no picture. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words.at(-1)] : words.slice(0, 1);
  return letters.map((w) => Array.from(w as string)[0]?.toUpperCase() ?? "").join("") || "?";
}

/** A person's name, never their id: a known name, else "Former member". */
export function personName(person: Named | undefined): string {
  return person?.real_name.trim() || person?.display_name.trim() || FORMER_MEMBER;
}
