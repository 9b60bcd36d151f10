/**
 * Slack mentions as names, shared by the dashboard (reports, Today, kudos) and the public feed: a reader sees
 * "@Maya Okafor" and "#team-standup", never "<@U0…>" or a channel id.
 */

/** Names the mention renderer looks people and channels up in; either may be missing or incomplete. */
export interface SlackNames {
  people?: ReadonlyMap<string, string>;
  channels?: ReadonlyMap<string, string>;
}

/**
 * Slack markup as people read it, never with an id: `<@U…>` as @Name (unknown people are "@someone"),
 * `<#C…|general>` or a known `<#C…>` as #general (else "#a channel"), `<!subteam^S…|@devs>` as @devs (else
 * "@a group"), `<!here>` as @here, `<https://…|label>` as its label. Plain text in, plain text out: the
 * caller escapes it (React does; the feed escapes before it adds emoji).
 */
export function readableSlackText(text: string, names: SlackNames = {}): string {
  return text.replace(/<([@#!])?([^<>|]*)(?:\|([^<>]*))?>/g, (all, sigil: string | undefined, id: string, label) => {
    if (sigil === "@") return `@${names.people?.get(id) || label || "someone"}`;
    if (sigil === "#") return `#${label || names.channels?.get(id) || "a channel"}`;
    if (sigil === "!") {
      if (id.startsWith("subteam^")) return label ? `@${label.replace(/^@/, "")}` : "@a group";
      // <!here>, <!channel>, <!everyone>; anything else (<!date^…|fallback>) reads as its fallback text.
      if (/^(here|channel|everyone)$/.test(id)) return `@${id}`;
      return label ?? "";
    }
    if (/^(https?:|mailto:)/.test(id)) return label || id.replace(/^mailto:/, "");
    return all;
  });
}

/** The user ids `<@U…>` mentions in these texts name, to look their names up. */
export function mentionedUserIds(texts: Iterable<string>): string[] {
  const ids = new Set<string>();
  for (const text of texts) for (const m of text.matchAll(/<@([A-Z0-9]+)(?:\|[^<>]*)?>/g)) ids.add(m[1] as string);
  return [...ids];
}
