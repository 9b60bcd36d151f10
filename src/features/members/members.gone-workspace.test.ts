import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type TestApp, useTestApp } from "../../../test/support/app.ts";
import { rows } from "../../db/client.ts";
import { upsertPeople } from "./members.repo.ts";

const person = (userId: string) => ({
  userId,
  realName: "Late Person",
  displayName: "",
  email: "",
  tz: "UTC",
  active: true,
  slackAdmin: false,
});

describe("storing members of a workspace being deleted", async () => {
  const t: TestApp = await useTestApp();
  await t.installTeam("T0GONEWS", { installer: "U0GONEADMIN" });
  const memberCount = async () =>
    (
      await rows<{ n: number }>(
        t.deps.db,
        sql`select count(*)::int as n from members where team_id = 'T0GONEWS' and user_id = 'U0LATE'`,
      )
    )[0]?.n;

  it("a look-up that ends while the workspace is deleted waits for the deletion and then stores nothing", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let locked!: () => void;
    const lockTaken = new Promise<void>((r) => {
      locked = r;
    });
    // The deletion: installation row locked, rows deleted, commit later.
    const deletion = t.deps.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from installations where team_id = 'T0GONEWS' for update`);
      locked();
      await held;
      await tx.execute(sql`delete from members where team_id = 'T0GONEWS'`);
      await tx.execute(sql`delete from installations where team_id = 'T0GONEWS'`);
    });
    await lockTaken;
    const late = upsertPeople(t.deps.db, "T0GONEWS", [person("U0LATE")], t.clock.now());
    // PGlite runs one transaction at a time; PostgreSQL makes the writer wait on the row lock.
    await new Promise((r) => setTimeout(r, 50));
    release();
    await deletion;
    await late;
    expect(await memberCount()).toBe(0);
  });

  it("stores people while the workspace is installed", async () => {
    await t.installTeam("T0GONEWS", { installer: "U0GONEADMIN" });
    await upsertPeople(t.deps.db, "T0GONEWS", [person("U0LATE")], t.clock.now());
    expect(await memberCount()).toBe(1);
  });
});
