import { useCallback, useMemo } from "react";
import type { SlackNames } from "../../../src/contract/slack-text.ts";
import { FORMER_MEMBER, personName } from "./person-text.ts";
import { useChannels, usePeople } from "./queries.ts";
import type { Person } from "./types.ts";

export { FORMER_MEMBER, foldText, initials, personMatches, personName } from "./person-text.ts";

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
