import type { Deps } from "../../deps.ts";
import type { SessionLookup } from "../../http/auth.ts";
import { extendSession, findSessionUser } from "./sessions.repo.ts";

/** What the HTTP layer's auth hook uses to read and slide sessions (passed to buildServer by app.ts). */
export function sessionLookup(deps: Pick<Deps, "db">): SessionLookup {
  return {
    findSession: (idHash, now) => findSessionUser(deps.db, idHash, now),
    extendSession: (idHash, expiresAt) => extendSession(deps.db, idHash, expiresAt),
  };
}
