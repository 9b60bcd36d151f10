import { sql } from "drizzle-orm";
import type { PruneStep } from "../../lib/retention.ts";

/** Sessions after they expire; a nonce after its token or state expired (the token is refused as expired first). */
export const sessionPruneSteps: readonly PruneStep[] = [
  { name: "sessions", table: "sessions", where: (now) => sql`expires_at < ${now.toISOString()}` },
  { name: "used_nonces", table: "used_nonces", where: (now) => sql`expires_at < ${now.toISOString()}` },
];
