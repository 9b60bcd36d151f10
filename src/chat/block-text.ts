/**
 * Cutting text to Slack's limits without breaking what it carries: never inside a surrogate pair (an emoji), a
 * Slack token (`<@U…>`, `<#C…|name>`, `<!here>`, `<https://…|label>`) or an HTML entity (`&amp;`), which Slack
 * would show broken or refuse. Pure functions over strings; lengths are JS lengths (UTF-16 code units).
 */

export const ELLIPSIS = "…";

const ENTITY = /^&(?:#\d{1,7}|#x[\da-f]{1,6}|[a-z]{2,8});/i;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** The largest index ≤ `at` where `text` may be cut: not inside a token, an entity or a surrogate pair. */
export function safeCut(text: string, at: number): number {
  let cut = Math.max(0, Math.min(at, text.length));
  if (cut === text.length) return cut;
  // Inside <…>? Escaped user text holds no raw "<" or ">", so an open "<" before the cut starts a token.
  const open = text.lastIndexOf("<", cut - 1);
  if (open !== -1) {
    if (text.indexOf(">", open) >= cut) cut = open;
  }
  const amp = text.lastIndexOf("&", cut - 1);
  if (amp !== -1 && cut - amp < 12) {
    const entity = ENTITY.exec(text.slice(amp, amp + 12));
    if (entity && amp + entity[0].length > cut) cut = amp;
  }
  if (cut > 0 && isHighSurrogate(text.charCodeAt(cut - 1))) cut -= 1;
  return cut;
}

/** `text` if it fits in `max`, else as much of it as fits followed by "…", ending at a word when one ends nearby. */
export function truncate(text: string, max: number, ellipsis = ELLIPSIS): string {
  if (text.length <= max) return text;
  let cut = safeCut(text, max - ellipsis.length);
  const space = text.lastIndexOf(" ", cut);
  if (space > cut * 0.8 && safeCut(text, space) === space) cut = space;
  return `${text.slice(0, cut).trimEnd()}${ellipsis}`;
}

/**
 * `text` in pieces of at most `max`, cut at a line break when one is in the second half of the piece, else at a
 * space, else wherever it is safe. No character is lost except the line break or space a cut lands on.
 */
export function splitText(text: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max + 1);
    let cut = -1;
    for (const sep of ["\n", " "]) {
      const at = window.lastIndexOf(sep);
      if (at > max / 2 && safeCut(rest, at) === at) {
        cut = at;
        break;
      }
    }
    const boundary = cut !== -1;
    if (!boundary) cut = safeCut(rest, max);
    // A token longer than a whole piece cannot be kept whole: cut it rather than loop forever.
    if (cut === 0) cut = isHighSurrogate(rest.charCodeAt(max - 1)) ? max - 1 : max;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(boundary ? cut + 1 : cut);
  }
  if (rest.length > 0 || pieces.length === 0) pieces.push(rest);
  return pieces;
}

export interface ListOptions {
  separator?: string;
  /** What stands for the items left out; default "…and N more". */
  more?: (hidden: number) => string;
}

export const andMore = (hidden: number): string => `${ELLIPSIS}and ${hidden} more`;

/**
 * Items joined by `separator` within `max` characters: those that do not fit are left out and counted in a last
 * "…and N more". An item too long to fit even alone is truncated.
 */
export function joinWithMore(items: readonly string[], max: number, opts: ListOptions = {}): string {
  const sep = opts.separator ?? "\n";
  const more = opts.more ?? andMore;
  let out = "";
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as string;
    const lead = i === 0 ? "" : sep;
    const left = items.length - i - 1;
    const tail = left > 0 ? `${sep}${more(left)}` : "";
    if (out.length + lead.length + item.length + tail.length <= max) {
      out += lead + item;
      continue;
    }
    if (i === 0) {
      const room = max - tail.length;
      if (room > ELLIPSIS.length) {
        out = truncate(item, room);
        continue;
      }
    }
    const hidden = items.length - i;
    return i === 0 ? truncate(more(hidden), max) : `${out}${sep}${more(hidden)}`;
  }
  return out;
}

/**
 * Shortens the longest texts first so that together they fit in `budget` (water-filling): a text shorter than its
 * fair share is kept whole and leaves the rest to the others.
 */
export function shareBudget(texts: readonly string[], budget: number): string[] {
  const total = texts.reduce((n, t) => n + t.length, 0);
  if (total <= budget) return [...texts];
  const lengths = texts.map((t) => t.length).sort((a, b) => a - b);
  let remaining = budget;
  let cap = 0;
  for (let i = 0; i < lengths.length; i++) {
    const fair = Math.floor(remaining / (lengths.length - i));
    const length = lengths[i] as number;
    if (length > fair) {
      cap = fair;
      break;
    }
    remaining -= length;
  }
  return texts.map((t) => (t.length <= cap ? t : truncate(t, Math.max(cap, ELLIPSIS.length))));
}
