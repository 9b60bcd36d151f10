import { describe, expect, it } from "vitest";
import { useTestApp } from "../../test/support/app.ts";

/** The edge as the route schemas draw it: every bad input is a 400 that names its field, never a 500. */
describe("input validation by the route schemas", async () => {
  const t = await useTestApp();
  await t.installTeam("T0VALID");
  const admin = await t.signIn("T0VALID", "U0VALIDADMIN");

  function send(method: "GET" | "POST" | "PUT", url: string, payload?: string) {
    const headers: Record<string, string> = { cookie: admin };
    if (payload !== undefined) headers["content-type"] = "application/json";
    return t.inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}) });
  }

  // Before the schemas, invite read a null body as {} ("user_id is required"): a body that is not an object
  // is now refused as such on every route.
  it.each([
    ["null", "null"],
    ["an array", "[]"],
    ["a string", '"C0ABC"'],
    ["a number", "42"],
  ])("a JSON body that is %s is refused as not an object", async (label, payload) => {
    const urls = ["/dashboard/api/standups", "/dashboard/api/members/invite"];
    // The key's body is optional (name only): null is no body there, anything else not an object is refused.
    if (label !== "null") urls.push("/dashboard/api/mcp/keys");
    for (const url of urls) {
      const res = await send("POST", url, payload);
      expect(res.statusCode, `${url} ${payload}`).toBe(400);
      expect(res.json(), url).toEqual({ error: "Request body must be a JSON object" });
    }
  });

  it("a JSON null is no body where the body is optional (an MCP key's name)", async () => {
    const res = await send("POST", "/dashboard/api/mcp/keys", "null");
    expect(res.statusCode).toBe(201);
    expect(res.json().name).toBe("");
  });

  it("a repeated sign-in token is an invalid link, answered with the sign-in page", async () => {
    for (const url of ["/dashboard?t=a&t=b", "/dashboard/login?t=a&t=b"]) {
      const res = await t.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(400);
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      expect(res.body).toContain("This sign-in link is not valid.");
    }
  });

  it("names the field of a wrong type, including nested array items", async () => {
    const wrongTime = await send(
      "POST",
      "/dashboard/api/standups",
      JSON.stringify({ channel_id: "C0A", schedule_time: 9 }),
    );
    expect(wrongTime.statusCode).toBe(400);
    expect(wrongTime.json().error).toMatch(/^schedule_time must be/);
    const wrongQuestion = await send(
      "POST",
      "/dashboard/api/standups",
      JSON.stringify({ channel_id: "C0A", schedule_time: "09:00", questions: ["fine", 5] }),
    );
    expect(wrongQuestion.json()).toEqual({ error: "questions[1] must be a string or an object with a text" });
    const wrongName = await send("POST", "/dashboard/api/mcp/keys", JSON.stringify({ name: ["x"] }));
    expect(wrongName.json()).toEqual({ error: "name must be a string" });
  });

  it("a bodiless POST is an empty object: required fields are named, optional bodies are fine", async () => {
    const standup = await send("POST", "/dashboard/api/standups");
    expect(standup.statusCode).toBe(400);
    expect(standup.json()).toEqual({ error: "channel_id is required" });
    const key = await send("POST", "/dashboard/api/mcp/keys");
    expect(key.statusCode).toBe(201);
    expect(key.json().key).toMatch(/^svc_/);
  });

  it.each([
    ["/dashboard/api/reports?days=0", "days must be a whole number from 1 to 365"],
    ["/dashboard/api/reports?days=366", "days must be a whole number from 1 to 365"],
    ["/dashboard/api/reports?days=7&days=8", "days must be a whole number from 1 to 365"],
    ["/dashboard/api/analytics?days=1e2", "days must be a whole number from 1 to 365"],
    ["/dashboard/api/reports?from=2026-02-30", "from must be a real date as YYYY-MM-DD"],
    ["/dashboard/api/reports?to=20260301", "to must be a real date as YYYY-MM-DD"],
    ["/dashboard/api/export/csv?from=2026-03-01&from=2026-03-02", "from must be a real date as YYYY-MM-DD"],
    ["/dashboard/api/export/csv?from=2026-03-09&to=2026-03-01", "from must not be after to"],
  ])("GET %s → 400 %s", async (url, error) => {
    const res = await send("GET", url);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error });
  });

  it("empty query values count as absent", async () => {
    const res = await send("GET", "/dashboard/api/reports?days=&from=&to=");
    expect(res.statusCode).toBe(200);
    expect(res.json().total_days).toBe(7);
  });

  it("answers only the fields its response schema declares", async () => {
    const res = await send("GET", "/dashboard/api/me");
    expect(Object.keys(res.json()).sort()).toEqual([
      "ai_summaries_available",
      "role",
      "team_id",
      "team_name",
      "user_id",
    ]);
  });
});
