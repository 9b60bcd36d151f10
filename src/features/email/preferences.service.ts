import { z } from "zod";
import type { EmailPreferences } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { findMember } from "../members/index.ts";
import { digestWanted, setDigestWanted } from "./email.repo.ts";
import type { UnsubscribeTarget } from "./unsubscribe.token.ts";

/** The admin's own e-mail switch; the user is taken from the session only. */

export const preferencesInput = z.object(
  { digest: z.boolean({ error: "digest must be true or false" }) },
  { error: "Request body must be a JSON object" },
);

type PrefDeps = Pick<Deps, "db" | "config" | "clock">;

export async function getPreferences(deps: PrefDeps, teamId: string, userId: string): Promise<EmailPreferences> {
  const [digest, member] = await Promise.all([
    digestWanted(deps.db, teamId, userId),
    findMember(deps.db, teamId, userId),
  ]);
  return { digest, email_enabled: Boolean(deps.config.emailApiKey), has_address: Boolean(member?.email) };
}

/** Saved whether or not e-mail is on here: the choice holds once the server gets a key. */
export async function updatePreferences(
  deps: PrefDeps,
  teamId: string,
  userId: string,
  input: z.output<typeof preferencesInput>,
): Promise<EmailPreferences> {
  await setDigestWanted(deps.db, teamId, userId, input.digest, deps.clock.now());
  return getPreferences(deps, teamId, userId);
}

/** The one-click unsubscribe: the digest off for the member the signed link names. */
export async function unsubscribe(deps: PrefDeps, target: UnsubscribeTarget): Promise<void> {
  await setDigestWanted(deps.db, target.teamId, target.userId, false, deps.clock.now());
}
