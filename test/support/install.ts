import { upsertInstallation } from "../../src/chat/installations.repo.ts";
import { restartTiming } from "../../src/features/schedules/index.ts";
import { encryptSecret } from "../../src/lib/crypto.ts";
import type { TestApp } from "./app.ts";

/**
 * Brings back a workspace installed with `installTeam` and since uninstalled, as the OAuth callback does on a
 * reinstall: the installation is active again (same token) and its standups' timing restarts now.
 */
export async function reinstallTeam(t: TestApp, teamId: string): Promise<void> {
  const now = t.clock.now();
  await t.deps.db.transaction(async (tx) => {
    const { reactivated } = await upsertInstallation(
      tx,
      {
        teamId,
        teamName: `Team ${teamId}`,
        botUserId: `B${teamId.slice(1)}BOT`,
        botTokenEnc: encryptSecret(t.deps.keys.tokenEncryption, `xoxb-${teamId.toLowerCase()}-token`),
        scopes: "chat:write,commands,reactions:write",
        installerUserId: `U${teamId.slice(1)}ADMIN`,
      },
      now,
    );
    if (!reactivated) throw new Error(`${teamId} was not uninstalled`);
    await restartTiming(tx, teamId, now);
  });
  t.deps.chat.forget(teamId);
}
