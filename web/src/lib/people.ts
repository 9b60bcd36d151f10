import { useCallback, useMemo } from "react";
import type { SlackNames } from "../../../src/contract/slack-text.ts";
import { useChannels, usePeople } from "./queries.ts";
import type { Person } from "./types.ts";

/** What a person whose record is gone is called: their Slack id means nothing to a reader. */
export const FORMER_MEMBER = "Former member";

/** Lower case without accents, so "lucia" finds "Lucía" and "FERNANDEZ" finds "Fernández". */
export function foldText(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** Whether a person matches a search by real name or Slack display name (the handle), accents ignored. */
export function personMatches(person: Pick<Person, "real_name" | "display_name">, search: string): boolean {
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
export function personName(person: Pick<Person, "real_name" | "display_name"> | undefined): string {
  return person?.real_name.trim() || person?.display_name.trim() || FORMER_MEMBER;
}

/** user id → Person, from the workspace's people list (any signed-in member may read it). */
export function usePeopleById(): ReadonlyMap<string, Person> {
  const people = usePeople();
  return useMemo(() => new Map((people.data ?? []).map((p) => [p.user_id, p])), [people.data]);
}

/** A function naming a user id: the name from the people list, else `known` (what a row carried), else "Former member". */
export function usePersonName(): (userId: string, known?: string | null) => string {
  const byId = usePeopleById();
  return useCallback(
    (userId, known) => {
      const person = byId.get(userId);
      return person ? personName(person) : known?.trim() || FORMER_MEMBER;
    },
    [byId],
  );
}

/** user id → name, for rendering Slack mentions in text. */
export function usePeopleNames(): ReadonlyMap<string, string> {
  const byId = usePeopleById();
  return useMemo(() => new Map([...byId].map(([id, p]) => [id, personName(p)])), [byId]);
}

/** People's and channels' names, for `readableSlackText`. */
export function useSlackNames(): SlackNames {
  const people = usePeopleNames();
  const channels = useChannels();
  return useMemo(
    () => ({ people, channels: new Map((channels.data ?? []).map((c) => [c.id, c.name])) }),
    [people, channels.data],
  );
}
