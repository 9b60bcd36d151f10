import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { useTestApp } from "../../test/support/app.ts";
import { encryptSecret } from "../lib/crypto.ts";
import { findInstallation } from "./installations.repo.ts";

describe("the installation read for Slack events (ChatClients.authorize)", async () => {
  const t = await useTestApp();
  await t.installTeam("T0AUTH", { botToken: "xoxb-first-token" });
  const setToken = (token: string) =>
    t.deps.db.execute(
      sql`update installations set bot_token_enc = ${encryptSecret(t.deps.keys.tokenEncryption, token)}
          where team_id = 'T0AUTH'`,
    );

  it("is held: a change made elsewhere (another instance) shows once this instance forgets it", async () => {
    expect(await t.deps.chat.authorize("T0AUTH")).toEqual({ botToken: "xoxb-first-token", botUserId: "B0AUTHBOT" });
    await setToken("xoxb-second-token");
    expect((await t.deps.chat.authorize("T0AUTH"))?.botToken).toBe("xoxb-first-token");
    t.deps.chat.forget("T0AUTH");
    expect((await t.deps.chat.authorize("T0AUTH"))?.botToken).toBe("xoxb-second-token");
  });

  it("is read again after AUTHORIZE_TTL_MS", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    try {
      t.deps.chat.forget("T0AUTH"); // held since before the timers were faked
      expect((await t.deps.chat.authorize("T0AUTH"))?.botToken).toBe("xoxb-second-token");
      await setToken("xoxb-third-token");
      vi.advanceTimersByTime(4_900);
      expect((await t.deps.chat.authorize("T0AUTH"))?.botToken).toBe("xoxb-second-token");
      vi.advanceTimersByTime(200);
      expect((await t.deps.chat.authorize("T0AUTH"))?.botToken).toBe("xoxb-third-token");
    } finally {
      vi.useRealTimers();
    }
  });

  it("an uninstall on this instance ends it at once: the next event is refused", async () => {
    expect(await t.deps.chat.authorize("T0AUTH")).toBeDefined();
    expect((await t.sendEvent("T0AUTH", { type: "app_uninstalled" })).statusCode).toBe(200);
    await vi.waitFor(async () =>
      expect((await findInstallation(t.deps.db, "T0AUTH"))?.uninstalledAt).toBeInstanceOf(Date),
    );
    expect(await t.deps.chat.authorize("T0AUTH")).toBeUndefined();
    expect(await t.deps.chat.authorize("T0NEVER")).toBeUndefined();
  });
});
