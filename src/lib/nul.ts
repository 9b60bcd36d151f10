/**
 * NUL (U+0000) in text: PostgreSQL's text and jsonb cannot hold it ("invalid byte sequence for encoding UTF8: 0x00",
 * "unsupported Unicode escape sequence"), so it is refused where people send it and stripped where Slack does.
 */

const NUL = "\u0000";

/** A field path as error messages name fields: `answers[2].text`, `questions[0]`, `user_id`. */
function child(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

/**
 * The first place in `value` (strings, arrays, plain objects and their keys) holding a NUL, named as a field path
 * under `root` ("" names the value itself); undefined when there is none. Walks iteratively: a deeply nested body
 * must not overflow the stack.
 */
export function findNul(value: unknown, root = ""): string | undefined {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === "string") {
      if (v.includes(NUL)) return path;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], child(path, i)]);
    } else if (v !== null && typeof v === "object" && !Buffer.isBuffer(v)) {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, inner] = entries[i]!;
        // A key cannot be shown with its NUL; the object holding it is the field.
        if (key.includes(NUL)) return path || "a field name";
        stack.push([inner, child(path, key)]);
      }
    }
  }
  return undefined;
}

/**
 * The value with every NUL removed from its strings and keys (a copy; other values as they are). Recursive: for
 * payloads of known, shallow shape (Slack's); an absurdly deep value throws a RangeError for the caller to refuse.
 */
export function stripNul<T>(value: T): T {
  if (typeof value === "string") return (value.includes(NUL) ? value.replaceAll(NUL, "") : value) as T;
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((x) => stripNul(x)) as T;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key.replaceAll(NUL, "")] = stripNul(inner);
  return out as T;
}
