import { describe, expect, it } from "vitest";
import { eventEnvelope, sign } from "../../../dev/slack-signing.ts";
import { type TestApp, useTestApp } from "../../../test/support/app.ts";
import { findInstallation } from "../../chat/installations.repo.ts";

/**
 * The intake re-runs a failed delivery for up to ~45 minutes: an app_uninstalled sent before a reinstall but
 * processed after it must not uninstall the new installation (Slack's event_time against authorized_at).
 */
describe("uninstall events processed late", async () => {
  const t: TestApp = await useTestApp();

  const uninstalledAt = async (teamId: string, type: string, eventTimeSeconds: number) => {
    const event = type === "tokens_revoked" ? { type, tokens: { bot: ["B0STALE"] } } : { type };
    const body = JSON.stringify({ ...eventEnvelope(teamId, event), event_time: eventTimeSeconds });
    const s = sign(body, { nowMs: t.clock.now().getTime() });
    const res = await t.app.server.inject({
      method: "POST",
      url: "/chat/events",
      headers: s.headers,
      payload: s.payload,
    });
    expect(res.statusCode).toBe(200);
    await t.app.settle();
    return (await findInstallation(t.deps.db, teamId))?.uninstalledAt ?? null;
  };

  for (const type of ["app_uninstalled", "tokens_revoked"]) {
    it(`a ${type} from before the reinstall leaves the reinstalled workspace alone; a later one uninstalls`, async () => {
      const teamId = type === "app_uninstalled" ? "T0STALEA" : "T0STALEB";
      t.clock.set("2026-03-02T09:00:00Z");
      await t.installTeam(teamId);
      const reinstalledAt = t.clock.now().getTime() / 1000;
      expect(await uninstalledAt(teamId, type, reinstalledAt - 120)).toBeNull();
      t.clock.set("2026-03-02T09:05:00Z");
      expect(await uninstalledAt(teamId, type, reinstalledAt + 300)).not.toBeNull();
    });
  }
});
