/**
 * Whether a blockers answer reports a real blocker. People answer "none" in endless ways ("• None.",
 * "No blocker :saluting_face:", "n/a"), and those must not trigger blocker alerts or highlights. The match
 * is conservative: only a whole answer that means "nothing" counts as no blocker, so "none of the tests
 * pass" or "no access to prod" stay blockers.
 */

/** Whole answers (after normalisation) that mean there is nothing blocking. */
const NOTHING_PHRASES: ReadonlySet<string> = new Set([
  "none",
  "no",
  "nope",
  "nah",
  "not",
  "nothing",
  "na",
  "nil",
  "null",
  "nada",
  "zilch",
  "0",
  "zero",
  "no blocker",
  "no blockers",
  "no blocks",
  "no blockages",
  "no blocking issues",
  "no impediments",
  "no issues",
  "no problems",
  "0 blockers",
  "zero blockers",
  "not really",
  "not blocked",
  "nothing blocking",
  "nothing blocking me",
  "nothing to report",
  "nothing to flag",
  "all good",
  "all clear",
  "all fine",
  "all good here",
]);

/** Leading words that only restate the "no" ("no, none", "nope nothing"). */
const FILLER_PREFIXES = ["no", "nope", "nah"];

/** A prefix is filler only before another negation: "no, all clear" is fine, "no all-clear yet" is not. */
const NEGATION_WORDS: ReadonlySet<string> = new Set(["no", "nope", "nah", "not", "none", "nothing", "na", "nil"]);

/** Trailing words that qualify "nothing" without changing it ("none for now", "no blockers today, thanks"). */
const FILLER_SUFFIXES = [
  "today",
  "for now",
  "so far",
  "yet",
  "atm",
  "at the moment",
  "right now",
  "currently",
  "at all",
  "really",
  "here",
  "thanks",
  "thank you",
  "thx",
];

/** Emoji that, on their own, mean "all clear". Any other lone emoji is treated as a blocker to be safe. */
const ALL_CLEAR_EMOJI: ReadonlySet<string> = new Set([
  "white_check_mark",
  "heavy_check_mark",
  "ballot_box_with_check",
  "+1",
  "thumbsup",
  "ok",
  "ok_hand",
  "saluting_face",
  "slightly_smiling_face",
  "smile",
  "sunglasses",
  "✅",
  "✔",
  "☑",
  "👍",
  "👌",
  "🫡",
  "🙂",
  "😎",
]);

const SLACK_EMOJI_CODE = /:([a-z0-9_+-]+):/g;
// Skin tones, variation selectors and joiners are not pictographic, so each emoji yields one match.
const UNICODE_EMOJI = /\p{Extended_Pictographic}/gu;
// Slack escapes these three characters in message text; "&gt; none" is a quoted "none".
const SLACK_ENTITY = /&(?:gt|lt|amp);/g;
// A list marker at the very start: "1. none", "2) none".
const LEADING_NUMBERING = /^\s*\d+[.)]\s+/;
// Dropped without a gap so that "n/a", "n.a." and "don't" stay one word.
const JOINING_PUNCTUATION = /[./'’]/g;
const ANY_OTHER_SYMBOL = /[^\p{L}\p{N}]+/gu;

export function isActiveBlocker(text: string | null | undefined): boolean {
  if (text === null || text === undefined) return false;
  const lowered = text.toLowerCase();

  const emoji = [
    ...Array.from(lowered.matchAll(SLACK_EMOJI_CODE), (match) => match[1]!).filter(
      (name) => !name.startsWith("skin-tone-"),
    ),
    ...(lowered.match(UNICODE_EMOJI) ?? []),
  ];
  const words = normalizeWords(lowered);

  if (words === "") return !emoji.every((name) => ALL_CLEAR_EMOJI.has(name));
  return !meansNothing(words);
}

/** Lower-case words separated by single spaces, with emoji, bullets, numbering and punctuation removed. */
function normalizeWords(lowered: string): string {
  return lowered
    .replace(SLACK_ENTITY, " ")
    .replace(SLACK_EMOJI_CODE, " ")
    .replace(UNICODE_EMOJI, " ")
    .replace(LEADING_NUMBERING, "")
    .replace(JOINING_PUNCTUATION, "")
    .replace(ANY_OTHER_SYMBOL, " ")
    .trim();
}

function meansNothing(words: string): boolean {
  let rest = words;
  for (;;) {
    if (NOTHING_PHRASES.has(rest)) return true;
    const shorter = withoutFiller(rest);
    if (shorter === rest) return false;
    rest = shorter;
  }
}

/** Strips one filler word from either end, never leaving an empty answer. */
function withoutFiller(words: string): string {
  for (const suffix of FILLER_SUFFIXES) {
    if (words.endsWith(` ${suffix}`)) return words.slice(0, -suffix.length - 1);
  }
  for (const prefix of FILLER_PREFIXES) {
    if (!words.startsWith(`${prefix} `)) continue;
    const rest = words.slice(prefix.length + 1);
    if (NEGATION_WORDS.has(rest.split(" ")[0]!)) return rest;
  }
  return words;
}
