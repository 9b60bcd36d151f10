import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { AppError } from "../../http/errors.ts";
import { requireMember, requireMembers } from "./members.refs.ts";
import { upsertPeople } from "./members.repo.ts";

/** What the check answers: "ok", or the 400's message. */
async function outcome(check: Promise<void>): Promise<string> {
  try {
    await check;
    return "ok";
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    expect(err.status).toBe(400);
    return err.message;
  }
}

describe("user ids stored as references must be active members of the caller's workspace", async () => {
  const t = await useTestApp();
  const A = "T0MREFA";
  const B = "T0MREFB";
  await t.installTeam(A);
  await t.installTeam(B);
  await t.addMember(A, "U0MREFANA");
  await t.addMember(A, "U0MREFBEN", { role: "admin" });
  await t.addMember(B, "U0MREFOTHER");
  await upsertPeople(
    t.deps.db,
    A,
    [
      {
        userId: "U0MREFGONE",
        realName: "Gone",
        displayName: "gone",
        email: "gone@example.com",
        tz: "UTC",
        active: false,
        slackAdmin: false,
      },
    ],
    t.clock.now(),
  );

  it("active members of the workspace pass, in any number and with repeats", async () => {
    expect(await outcome(requireMembers(t.deps, A, ["U0MREFANA", "U0MREFBEN", "U0MREFANA"], "admins"))).toBe("ok");
    expect(await outcome(requireMembers(t.deps, A, [], "admins"))).toBe("ok");
    expect(await outcome(requireMember(t.deps, A, "U0MREFBEN", "target_user_id"))).toBe("ok");
  });

  it("an unknown id is a 400 naming the field and its index", async () => {
    expect(await outcome(requireMembers(t.deps, A, ["U0MREFANA", "U0NOBODY"], "admins"))).toBe(
      "admins[1]: no such member in this workspace",
    );
    expect(await outcome(requireMember(t.deps, A, "U0NOBODY", "target_user_id"))).toBe(
      "target_user_id: no such member in this workspace",
    );
  });

  it("another workspace's member is not a member here", async () => {
    expect(await outcome(requireMembers(t.deps, A, ["U0MREFOTHER"], "admins"))).toBe(
      "admins[0]: no such member in this workspace",
    );
    expect(await outcome(requireMember(t.deps, B, "U0MREFANA", "target_user_id"))).toBe(
      "target_user_id: no such member in this workspace",
    );
  });

  it("a member who left (inactive) is refused, and the first bad id is the one named", async () => {
    expect(await outcome(requireMembers(t.deps, A, ["U0MREFANA", "U0MREFGONE", "U0NOBODY"], "admins"))).toBe(
      "admins[1]: this member is deactivated in this workspace",
    );
    expect(await outcome(requireMember(t.deps, A, "U0MREFGONE", "target_user_id"))).toBe(
      "target_user_id: this member is deactivated in this workspace",
    );
  });
});
