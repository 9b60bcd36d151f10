/**
 * Reading kudos out of what people type in Slack. Pure text functions: Slack's markup in, user ids and the message
 * to store out.
 */

/** A user mention as Slack writes it: `<@U123>`, or `<@U123|name>` in slash commands with escaping on. */
const MENTION = /<@([UW][A-Z0-9]{2,})(?:\|[^>]*)?>/g;
/** A mention followed by `++`, spaces allowed between. */
const PLUS_PLUS = /<@([UW][A-Z0-9]{2,})(?:\|[^>]*)?>\s*\+\+/g;
/** Any of Slack's `<…>` tokens: mentions, channels, links, `<!here>`. */
const TOKEN = /<[^<>]*>/g;
/** A plain `@name`, as slash commands send mentions when the command does not escape them. */
const PLAIN_MENTION = /(?:^|[\s(,;])@([\p{L}\p{N}][\p{L}\p{N}._'-]*)/gu;
const BROADCASTS = new Set(["channel", "here", "everyone"]);

function unique(ids: Iterable<string>): string[] {
  return [...new Set(ids)];
}

/** Everyone mentioned, in order of first mention. */
export function mentionedUsers(text: string): string[] {
  return unique([...text.matchAll(MENTION)].map((m) => m[1]!));
}

/** The word "kudos" in any case, outside Slack's tokens (a link or a mention's label does not count). */
export function saysKudos(text: string): boolean {
  return /\bkudos\b/i.test(text.replace(TOKEN, " "));
}

/**
 * Who a channel message gives kudos to: everyone it mentions when it says "kudos", else each person whose mention is
 * followed by `++`. Empty when the message gives none.
 */
export function channelKudosReceivers(text: string): string[] {
  if (saysKudos(text)) return mentionedUsers(text);
  return unique([...text.matchAll(PLUS_PLUS)].map((m) => m[1]!));
}

/** `@name` words outside Slack's tokens (not `@channel`, `@here`, `@everyone`), lowercased, in order. */
export function plainMentions(text: string): string[] {
  const names = [...text.replace(TOKEN, " ").matchAll(PLAIN_MENTION)].map((m) =>
    m[1]!.replace(/[.'-]+$/, "").toLowerCase(),
  );
  return unique(names.filter((n) => n !== "" && !BROADCASTS.has(n)));
}

/**
 * The message as stored: mentions without their labels (`<@U123>`), and Slack's three escaped characters
 * (`&amp;`, `&lt;`, `&gt;`) back to `&`, `<`, `>`. Every place that shows it escapes it again.
 */
export function storedText(slackText: string): string {
  return slackText
    .replace(MENTION, (_all, id: string) => `<@${id}>`)
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .trim();
}

/** Length in characters as people count them (code points, so an emoji is one). */
export function charLength(text: string): number {
  return [...text].length;
}

/** The first `max` characters, the last of them an ellipsis when something was cut. */
export function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

/**
 * Text people typed, for a message the bot posts: `&`, `<`, `>` escaped (so `<!channel>` cannot ping anyone) and
 * `@channel`-like words broken, but user mentions kept, so the people named are notified.
 */
export function slackQuote(text: string): string {
  const inert = (part: string) =>
    part
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/@(channel|here|everyone)\b/gi, "@\u200b$1");
  let out = "";
  let last = 0;
  for (const m of text.matchAll(MENTION)) {
    out += `${inert(text.slice(last, m.index))}<@${m[1]}>`;
    last = m.index + m[0].length;
  }
  return out + inert(text.slice(last));
}

/** Replaces each plain `@name` that `resolve` knows with its mention `<@U…>`. */
export function mentionPlainNames(text: string, resolve: (name: string) => string | undefined): string {
  return text.replace(/(^|[\s(,;])@([\p{L}\p{N}][\p{L}\p{N}._'-]*)/gu, (all, before: string, name: string) => {
    const bare = name.replace(/[.'-]+$/, "");
    const id = resolve(bare.toLowerCase());
    return id ? `${before}<@${id}>${name.slice(bare.length)}` : all;
  });
}

/** The text without the mentions it starts with (`<@A>, <@B> and <@C> thanks` → `thanks`). */
export function withoutLeadingMentions(text: string): string {
  return text.replace(/^(?:\s*(?:<@[UW][A-Z0-9]{2,}(?:\|[^>]*)?>|,|&|\+|and)\s*)+/i, "").trim();
}
