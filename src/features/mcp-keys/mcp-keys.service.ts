import { z } from "zod";
import type { McpScope } from "../../db/schema.ts";
import type { Deps } from "../../deps.ts";
import { notFound } from "../../http/errors.ts";
import { randomBase62, sha256Hex } from "../../lib/crypto.ts";
import {
  findLiveKey,
  insertKey,
  type KeyOwner,
  type McpKeyRow,
  revokeKeyRow,
  selectKeys,
  touchKey,
} from "./mcp-keys.repo.ts";

export const KEY_PREFIX = "svc_";
/** 43 base62 characters carry 43 × log2(62) ≈ 256 bits, as much as 32 random bytes. */
export const KEY_RANDOM_LENGTH = 43;
/** What the dashboard shows to tell keys apart: "svc_" and 8 characters. */
export const KEY_PREFIX_LENGTH = 12;
export const MAX_NAME_LENGTH = 100;
/** `last_used_at` is written at most this often per key, not on every request. */
export const TOUCH_INTERVAL_MS = 60_000;
/** Anything else is not worth a database lookup. Generous on length so longer keys can come later. */
const KEY_SHAPE = /^svc_[0-9A-Za-z]{32,128}$/;
/** serial is a 32-bit integer: a larger id cannot exist, and must not reach the database as a parameter. */
const MAX_SERIAL = 2_147_483_647;

export interface KeyView {
  id: number;
  name: string;
  key_prefix: string;
  created_at: string;
  last_used_at: string | null;
  active: boolean;
  scopes: McpScope[];
}

export interface CreatedKey {
  id: number;
  name: string;
  /** The whole key, shown this once; only its SHA-256 is stored. */
  key: string;
  key_prefix: string;
  created_at: string;
  scopes: McpScope[];
}

/** Every scope a credential can hold; standups:write implies nothing by itself, so a write key lists both. */
export const MCP_SCOPES = ["standups:read", "standups:write"] as const satisfies readonly McpScope[];

export const createKeyInput = z.object(
  {
    name: z
      .string({ error: "name must be a string" })
      .trim()
      .max(MAX_NAME_LENGTH, `name must be at most ${MAX_NAME_LENGTH} characters`)
      .nullish(),
    scopes: z
      .array(z.enum(MCP_SCOPES, { error: "scopes holds standups:read and, to let the key write, standups:write" }), {
        error: "scopes must be an array",
      })
      .max(MCP_SCOPES.length, "scopes lists each scope once")
      .nullish(),
  },
  { error: "Request body must be a JSON object" },
);
export type CreateKeyInput = z.output<typeof createKeyInput>;

export function presentKey(row: McpKeyRow): KeyView {
  return {
    id: row.id,
    name: row.name,
    key_prefix: row.keyPrefix,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    active: row.revokedAt === null,
    scopes: row.scopes,
  };
}

export function generateKey(): string {
  return KEY_PREFIX + randomBase62(KEY_RANDOM_LENGTH);
}

export async function createKey(
  deps: Pick<Deps, "db" | "clock">,
  teamId: string,
  createdBy: string,
  input: CreateKeyInput,
): Promise<CreatedKey> {
  const key = generateKey();
  // Reading comes with every key: a write key without read would see no standups to act on.
  const scopes: McpScope[] = input.scopes?.includes("standups:write")
    ? ["standups:read", "standups:write"]
    : ["standups:read"];
  const row = await insertKey(deps.db, {
    scopes,
    teamId,
    name: input.name ?? "",
    keyHash: sha256Hex(key),
    keyPrefix: key.slice(0, KEY_PREFIX_LENGTH),
    createdBy,
    createdAt: deps.clock.now(),
  });
  return {
    id: row.id,
    name: row.name,
    key,
    key_prefix: row.keyPrefix,
    created_at: row.createdAt.toISOString(),
    scopes: row.scopes,
  };
}

export async function listKeys(deps: Pick<Deps, "db">, teamId: string): Promise<KeyView[]> {
  return (await selectKeys(deps.db, teamId)).map(presentKey);
}

/** Unknown, malformed and other workspaces' ids are all 404, so existence does not leak. */
export async function revokeKey(
  deps: Pick<Deps, "db" | "clock">,
  teamId: string,
  rawId: string,
): Promise<{ ok: true }> {
  const id = /^\d{1,10}$/.test(rawId) ? Number(rawId) : 0;
  if (id < 1 || id > MAX_SERIAL || !(await revokeKeyRow(deps.db, teamId, id, deps.clock.now()))) {
    throw notFound("API key not found");
  }
  return { ok: true };
}

/** The workspace behind a presented key: undefined for malformed, unknown, revoked or uninstalled. */
export async function authenticateKey(deps: Pick<Deps, "db">, presented: string): Promise<KeyOwner | undefined> {
  if (!KEY_SHAPE.test(presented)) return undefined;
  return findLiveKey(deps.db, sha256Hex(presented));
}

/** Records use at most once a minute per key; the common case (used recently) costs no write. */
export async function recordKeyUse(deps: Pick<Deps, "db" | "clock">, owner: KeyOwner): Promise<void> {
  const now = deps.clock.now();
  const staleBefore = new Date(now.getTime() - TOUCH_INTERVAL_MS);
  if (owner.lastUsedAt && owner.lastUsedAt >= staleBefore) return;
  await touchKey(deps.db, owner.keyId, now, staleBefore);
}

export type { KeyOwner };
