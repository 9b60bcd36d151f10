/** Decoding requests the way Slack accepts them, and writing responses. */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Args } from "./types.ts";

const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Fields Slack takes as JSON inside a form; WebClient JSON-encodes every non-scalar argument. */
const JSON_FIELDS = ["blocks", "attachments", "view", "metadata"];

export interface ParsedRequest {
  args: Args;
  /** From `Authorization: Bearer`, else a `token` form or query field (never a JSON body field, as on Slack). */
  token: string | null;
  basic: { clientId: string; clientSecret: string } | null;
  /** Set when the body could not be decoded; Slack answers with it as the error. */
  bodyError?: string;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error("fake-slack: request body too large");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export async function parseRequest(req: IncomingMessage, url: URL): Promise<ParsedRequest> {
  const form: Args = Object.fromEntries(url.searchParams);
  let json: Args = {};
  let bodyError: string | undefined;
  const contentType = (req.headers["content-type"] ?? "").toLowerCase();
  const body = await readBody(req);
  if (body.length > 0) {
    if (contentType.startsWith("application/json")) {
      try {
        const parsed: unknown = JSON.parse(body.toString("utf8"));
        if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) json = parsed as Args;
        else bodyError = "invalid_json";
      } catch {
        bodyError = "invalid_json";
      }
    } else if (contentType.startsWith("multipart/form-data")) {
      const data = await new Response(body, { headers: { "content-type": contentType } }).formData();
      for (const [key, value] of data) {
        form[key] = typeof value === "string" ? value : { filename: value.name, size: value.size };
      }
    } else {
      Object.assign(form, Object.fromEntries(new URLSearchParams(body.toString("utf8"))));
    }
  }

  let token: string | null = null;
  let basic: ParsedRequest["basic"] = null;
  const auth = req.headers.authorization ?? "";
  const [scheme = "", credentials = ""] = auth.split(" ", 2);
  if (scheme.toLowerCase() === "bearer" && credentials) token = credentials;
  if (scheme.toLowerCase() === "basic" && credentials) {
    const decoded = Buffer.from(credentials, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon > 0) basic = { clientId: decoded.slice(0, colon), clientSecret: decoded.slice(colon + 1) };
  }
  if (token === null && typeof form.token === "string" && form.token !== "") token = form.token;

  const args: Args = { ...form, ...json };
  delete args.token;
  for (const key of JSON_FIELDS) {
    const value = args[key];
    if (typeof value === "string" && value !== "") {
      try {
        args[key] = JSON.parse(value);
      } catch {
        // Left as the raw string so the method can answer invalid_*_format like Slack.
      }
    }
  }
  return { args, token, basic, bodyError };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendText(res: ServerResponse, status: number, text: string, contentType = "text/plain"): void {
  res.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** A placeholder avatar so demo pages never load images from outside 127.0.0.1. */
/** Up to two initials of a name ("Lucía Fernández" → "LF"; "maya" → "M"), XML-safe by construction. */
export function initialsOf(name: string): string {
  const letters = name
    .split(/\s+/)
    .map((w) => [...w].find((ch) => /\p{L}|\p{N}/u.test(ch)))
    .filter((ch): ch is string => ch !== undefined);
  const picked = letters.length > 1 ? [letters[0], letters[letters.length - 1]] : letters;
  return picked.join("").toUpperCase();
}

/**
 * A person's picture: their initials (from the real name), never digits of the id that read as ranks, on a colour
 * derived from the id so each person keeps theirs. An unknown id gets the colour alone.
 */
export function avatarSvg(id: string, realName?: string): string {
  let hue = 0;
  for (const ch of id) hue = (hue * 31 + ch.charCodeAt(0)) % 360;
  const label = initialsOf(realName ?? "");
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="72" height="72" viewBox="0 0 72 72">` +
    `<rect width="72" height="72" rx="8" fill="hsl(${hue},55%,45%)"/>` +
    `<text x="36" y="46" font-family="sans-serif" font-size="28" text-anchor="middle" fill="#fff">${label}</text></svg>`
  );
}
