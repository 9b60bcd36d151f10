import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeSlack, startFakeSlack } from "./index.ts";

let fake: FakeSlack;

beforeEach(async () => {
  fake = await startFakeSlack();
  fake.addTeam({ id: "T1", name: "Acme", botToken: "xoxb-acme", botUserId: "UBOT1" });
  fake.addUser("T1", { id: "U0DEMO0024", name: "lukasz", real_name: "Łukasz Wójcik" });
  fake.addUser("T1", { id: "U0DEMO0025", name: "grace", real_name: "Grace O'Brien" });
  fake.addUser("T1", { id: "U0DEMO0003", name: "priya", real_name: "Priya" });
});

afterEach(async () => {
  await fake.close();
});

/** The picture the dashboard shows: what the profile's image_72 points at, fetched over HTTP. */
async function picture(userId: string): Promise<{ label: string; fill: string; type: string | null }> {
  const info = (await (await fetch(`${fake.url}users.info?user=${userId}&token=xoxb-acme`)).json()) as {
    user: { profile: { image_72: string } };
  };
  const res = await fetch(info.user.profile.image_72);
  expect(res.status).toBe(200);
  const svg = await res.text();
  return {
    label: /<text[^>]*>([^<]*)<\/text>/.exec(svg)?.[1] ?? "",
    fill: /<rect[^>]*fill="([^"]+)"/.exec(svg)?.[1] ?? "",
    type: res.headers.get("content-type"),
  };
}

describe("avatar pictures", () => {
  it("draw the person's initials from their real name, never digits of the id", async () => {
    expect((await picture("U0DEMO0024")).label).toBe("ŁW");
    expect((await picture("U0DEMO0025")).label).toBe("GO");
    expect((await picture("U0DEMO0003")).label).toBe("P");
    expect((await picture("U0DEMO0024")).type).toContain("image/svg+xml");
  });

  it("colour each person by their id: stable for one, different between people", async () => {
    const a = await picture("U0DEMO0024");
    expect((await picture("U0DEMO0024")).fill).toBe(a.fill);
    expect((await picture("U0DEMO0025")).fill).not.toBe(a.fill);
  });
});
