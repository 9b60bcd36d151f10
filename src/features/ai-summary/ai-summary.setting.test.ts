import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { llmEnv, startFakeLlm } from "../../../test/support/fake-llm.ts";

const TEAM = "T0AISET";
const ADMIN = "U0AISETADMIN";

describe("the ai_summary schedule setting and ai_summaries_available", async () => {
  const t = await useTestApp();
  await t.installTeam(TEAM, { installer: ADMIN });
  t.fake.addChannel(TEAM, { id: "C0AISET", name: "aiset", members: [] });
  const admin = await t.signIn(TEAM, ADMIN);
  const api = (method: "GET" | "POST" | "PUT", url: string, body?: unknown) =>
    t.inject({
      method,
      url,
      headers: { cookie: admin, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

  it("is false unless set, true or false only, and kept through GET, POST and PUT", async () => {
    const plain = await api("POST", "/dashboard/api/schedules", { channel_id: "C0AISET", schedule_time: "10:00" });
    expect(plain.statusCode).toBe(201);
    expect(plain.json().ai_summary).toBe(false);
    const bad = await api("PUT", `/dashboard/api/schedules/${plain.json().id}`, { ai_summary: "yes" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: "ai_summary must be true or false" });
    const on = await api("PUT", `/dashboard/api/schedules/${plain.json().id}`, { ai_summary: true });
    expect(on.json()).toMatchObject({ ai_summary: true, schedule_time: "10:00" });
    const listed = (await api("GET", "/dashboard/api/schedules")).json() as { id: string; ai_summary: boolean }[];
    expect(listed.find((s) => s.id === plain.json().id)?.ai_summary).toBe(true);
    const created = await api("POST", "/dashboard/api/schedules", {
      channel_id: "C0AISET",
      schedule_time: "11:00",
      ai_summary: true,
    });
    expect(created.json().ai_summary).toBe(true);
  });

  it("/me says whether the server has a model", async () => {
    expect((await api("GET", "/dashboard/api/me")).json().ai_summaries_available).toBe(false);
  });
});

describe("ai_summaries_available with a model", async () => {
  const llm = await startFakeLlm();
  const t = await useTestApp({ env: llmEnv(llm) });
  await t.installTeam(TEAM, { installer: ADMIN });

  it("is true when LLM_API_URL is set", async () => {
    const cookie = await t.signIn(TEAM, ADMIN);
    const me = await t.inject({ method: "GET", url: "/dashboard/api/me", headers: { cookie } });
    expect(me.json()).toMatchObject({ role: "admin", ai_summaries_available: true });
    await llm.close();
  });
});
