import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { setProfile, setUpCelebrations } from "../../../test/support/celebrations.ts";
import { celebrationsTick } from "./celebrations.scheduler.ts";

const UPCOMING = "/dashboard/api/celebrations/upcoming";

/** The upcoming list says whether each celebration was posted, is still to be, or will not be: never a plan as a fact. */
describe("upcoming celebrations: posted, planned or not posted", async () => {
  const t = await useTestApp();
  const list = async (cookie: string) => {
    const res = await t.inject({ method: "GET", url: UPCOMING, headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { user_id: string; post_date: string | null; post_status: string }[];
  };
  const statusOf = async (cookie: string, userId: string) => (await list(cookie)).find((c) => c.user_id === userId);

  it("a Sunday birthday is planned for the Friday before, and posted once the Friday post went out", async () => {
    const TEAM = "T0UPCPOST";
    t.clock.set("2026-11-26T08:00:00Z"); // Thursday
    const { cookie, channel } = await setUpCelebrations(t, TEAM, { timezone: "Europe/Paris" });
    await t.addMember(TEAM, "U0UPCSUN");
    await setProfile(t.deps.db, TEAM, "U0UPCSUN", { birthday: "11-29" }); // Sunday 29 Nov 2026
    t.clock.set("2026-11-27T07:30:00Z"); // Friday 08:30 in Paris, before the 09:00 post
    expect(await statusOf(cookie, "U0UPCSUN")).toMatchObject({ post_date: "2026-11-27", post_status: "planned" });
    t.clock.set("2026-11-27T08:00:30Z"); // Friday 09:00 in Paris: claimed, not yet sent
    await celebrationsTick(t.deps);
    expect((await statusOf(cookie, "U0UPCSUN"))?.post_status).toBe("planned");
    await t.deps.queue.drain();
    expect(t.fake.messages(channel)).toHaveLength(1);
    expect(await statusOf(cookie, "U0UPCSUN")).toMatchObject({ post_date: "2026-11-27", post_status: "posted" });
  });

  it("settings saved after today's post time: today's post will not be made, and says so", async () => {
    const TEAM = "T0UPCLATE";
    t.clock.set("2026-11-27T20:00:00Z"); // Friday 21:00 in Paris
    const { cookie } = await setUpCelebrations(t, TEAM, { timezone: "Europe/Paris" });
    await t.addMember(TEAM, "U0UPCLSUN");
    await t.addMember(TEAM, "U0UPCLTUE");
    await setProfile(t.deps.db, TEAM, "U0UPCLSUN", { birthday: "11-29" });
    await setProfile(t.deps.db, TEAM, "U0UPCLTUE", { birthday: "12-01" });
    t.clock.set("2026-11-27T20:05:00Z");
    await celebrationsTick(t.deps);
    await t.deps.queue.drain();
    expect(await statusOf(cookie, "U0UPCLSUN")).toMatchObject({ post_date: "2026-11-27", post_status: "not_posted" });
    expect(await statusOf(cookie, "U0UPCLTUE")).toMatchObject({ post_date: "2026-12-01", post_status: "planned" });
  });

  it("without a channel nothing is planned", async () => {
    const TEAM = "T0UPCNOCH";
    t.clock.set("2026-11-27T07:00:00Z");
    await t.installTeam(TEAM);
    const cookie = await t.signIn(TEAM, "U0UPCNOCHADMIN");
    await t.addMember(TEAM, "U0UPCNSUN");
    await setProfile(t.deps.db, TEAM, "U0UPCNSUN", { birthday: "12-01" });
    expect(await statusOf(cookie, "U0UPCNSUN")).toMatchObject({ post_status: "not_posted" });
  });
});
