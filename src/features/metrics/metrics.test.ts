import { sql } from "drizzle-orm";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { describe, expect, it } from "vitest";
import { createTestApp, type TestApp, useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { tick } from "../standups/index.ts";

type Family = ReturnType<typeof parsePrometheusTextFormat>[number];

async function scrape(t: TestApp, headers: Record<string, string> = {}): Promise<Family[]> {
  const res = await t.inject({ method: "GET", url: "/metrics", headers });
  expect(res.statusCode, res.body).toBe(200);
  return parsePrometheusTextFormat(res.body);
}

function family(families: Family[], name: string): Family {
  const found = families.find((f) => f.name === name);
  if (!found) throw new Error(`no metric ${name}`);
  return found;
}

/** The value of a counter or gauge series whose labels include `labels` (0 when there is none). */
function value(families: Family[], name: string, labels: Record<string, string> = {}): number {
  const series = family(families, name).metrics.filter((m) =>
    Object.entries(labels).every(([k, v]) => (m as { labels?: Record<string, string> }).labels?.[k] === v),
  );
  return series.reduce((sum, m) => sum + Number((m as { value?: string }).value ?? 0), 0);
}

/**
 * Observations of a histogram whose series' labels include `labels`, read from its `_count` lines: the parser
 * (prom2json's shape) keeps a histogram's buckets but drops the labels of its series.
 */
function histogramCount(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split("\n")) {
    const m = new RegExp(`^${name}_count(?:\\{(.*)\\})? (\\S+)$`).exec(line);
    if (!m) continue;
    const found = Object.fromEntries([...(m[1] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) total += Number(m[2]);
  }
  return total;
}

describe("GET /metrics", async () => {
  const t = await useTestApp();
  let n = 0;

  /** A workspace with `people` in a channel, a daily 09:00 UTC schedule, and the clock at `at`. */
  async function workspace(people: string[]): Promise<{ teamId: string; channelId: string; scheduleId: string }> {
    n += 1;
    const teamId = `T0MET${n}`;
    const channelId = `C0MET${n}`;
    // Only this case's schedule may run.
    await t.deps.db.execute(sql`update schedules set active = false`);
    await t.installTeam(teamId);
    for (const u of people) {
      t.fake.addUser(teamId, { id: u, name: u.toLowerCase(), real_name: u });
      await t.addMember(teamId, u);
    }
    t.fake.addChannel(teamId, { id: channelId, name: `met${n}`, members: [...people, `B${teamId.slice(1)}BOT`] });
    const scheduleId = await createSchedule(t.deps.db, t.clock, {
      teamId,
      channelId,
      time: "09:00",
      tz: "UTC",
      days: "mon,tue,wed,thu,fri,sat,sun",
    });
    return { teamId, channelId, scheduleId };
  }

  it("answers the Prometheus text format, which a parser reads, with the process defaults and every family", async () => {
    const res = await t.inject({ method: "GET", url: "/metrics" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("no-store");
    const families = parsePrometheusTextFormat(res.body);
    const names = families.map((f) => f.name);
    for (const name of [
      "upbeat_http_request_duration_seconds",
      "upbeat_slack_api_requests_total",
      "upbeat_slack_api_request_duration_seconds",
      "upbeat_job_queue_jobs",
      "upbeat_job_failures_total",
      "upbeat_standup_runs_started_total",
      "upbeat_standup_runs_skipped_total",
      "upbeat_standup_dms_sent_total",
      "upbeat_scheduler_lag_seconds",
      "upbeat_webhook_deliveries_total",
      "upbeat_email_deliveries_total",
      "process_cpu_user_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_eventloop_lag_seconds",
    ]) {
      expect(names, name).toContain(name);
    }
    expect(family(families, "upbeat_http_request_duration_seconds").type).toBe("HISTOGRAM");
    expect(family(families, "upbeat_standup_dms_sent_total").type).toBe("COUNTER");
    expect(family(families, "upbeat_job_queue_jobs").type).toBe("GAUGE");
  });

  it("counts the DMs a run sends, the run started, the scheduler's lag and the Slack calls", async () => {
    const people = ["U0MA1", "U0MA2", "U0MA3"];
    await workspace(people);
    const before = await scrape(t);
    t.clock.set("2026-03-04T09:00:05Z");
    expect((await tick(t.deps)).started).toHaveLength(1);
    await t.deps.queue.drain();
    const after = await scrape(t);
    const rise = (name: string, labels: Record<string, string> = {}) =>
      value(after, name, labels) - value(before, name, labels);
    expect(rise("upbeat_standup_dms_sent_total", { kind: "ask" })).toBe(3);
    expect(rise("upbeat_standup_runs_started_total", { trigger: "schedule" })).toBe(1);
    // Five seconds late: one observation, in the 5 s bucket and not the 2 s one.
    const lag = family(after, "upbeat_scheduler_lag_seconds").metrics[0]!;
    const lagBefore = family(before, "upbeat_scheduler_lag_seconds").metrics[0]!;
    expect(Number(lag.count) - Number(lagBefore.count ?? 0)).toBe(1);
    expect(Number(lag.buckets?.["5"]) - Number(lagBefore.buckets?.["5"] ?? 0)).toBe(1);
    expect(Number(lag.buckets?.["2"]) - Number(lagBefore.buckets?.["2"] ?? 0)).toBe(0);
    // A parent message and three asks.
    expect(rise("upbeat_slack_api_requests_total", { method: "chat.postMessage", outcome: "ok" })).toBe(4);
    // Retried jobs do not count a DM twice: draining again sends and counts nothing.
    await t.deps.queue.drain();
    expect(value(await scrape(t), "upbeat_standup_dms_sent_total", { kind: "ask" })).toBe(
      value(after, "upbeat_standup_dms_sent_total", { kind: "ask" }),
    );
  });

  it("counts a 429 from Slack as rate_limited, and no job failure: the post waits out each Retry-After", async () => {
    t.fake.reset();
    await workspace(["U0MB1"]);
    const before = await scrape(t);
    // postOnce waits out every short Retry-After itself (rate-buckets.ts): a 429 is not a job failure.
    t.fake.fail("chat.postMessage", { status: 429, retryAfter: 0 }, 2);
    t.clock.set("2026-03-05T09:00:01Z");
    await tick(t.deps);
    await t.deps.queue.drain();
    const after = await scrape(t);
    const rise = (name: string, labels: Record<string, string>) =>
      value(after, name, labels) - value(before, name, labels);
    expect(t.fake.callsTo("chat.postMessage").filter((c) => c.faulted)).toHaveLength(2);
    expect(rise("upbeat_slack_api_requests_total", { method: "chat.postMessage", outcome: "rate_limited" })).toBe(2);
    expect(rise("upbeat_job_failures_total", { outcome: "retry" })).toBe(0);
    expect(rise("upbeat_standup_dms_sent_total", { kind: "ask" })).toBe(1);
  });

  it("sorts Slack's errors into a few outcomes and counts a read's retries one by one", async () => {
    t.fake.reset();
    const { teamId } = await workspace(["U0MC1"]);
    const before = await scrape(t);
    const read = await t.deps.chat.forTeam(teamId, "read");
    t.fake.fail("users.info", { status: 429, retryAfter: 0 }, 1);
    await read.users.info({ user: "U0MC1" });
    t.fake.fail("conversations.info", { error: "channel_not_found" }, 1);
    await expect(read.conversations.info({ channel: "C0NOPE" })).rejects.toThrow();
    t.fake.fail("auth.test", { error: "invalid_auth" }, 1);
    await expect(read.auth.test()).rejects.toThrow();
    const after = await scrape(t);
    const rise = (labels: Record<string, string>) =>
      value(after, "upbeat_slack_api_requests_total", labels) -
      value(before, "upbeat_slack_api_requests_total", labels);
    expect(rise({ method: "users.info", outcome: "rate_limited" })).toBe(1);
    expect(rise({ method: "users.info", outcome: "ok" })).toBe(1);
    expect(rise({ method: "conversations.info", outcome: "destination_gone" })).toBe(1);
    expect(rise({ method: "auth.test", outcome: "auth_error" })).toBe(1);
  });

  it("counts runs skipped: more than 3 hours late, and nobody in the channel to ask", async () => {
    await workspace([]);
    const before = await scrape(t);
    t.clock.set("2026-03-06T09:00:01Z");
    await tick(t.deps);
    await t.deps.queue.drain();
    await workspace(["U0MD1"]);
    t.clock.set("2026-03-07T12:30:00Z");
    await tick(t.deps);
    const after = await scrape(t);
    const rise = (reason: string) =>
      value(after, "upbeat_standup_runs_skipped_total", { reason }) -
      value(before, "upbeat_standup_runs_skipped_total", { reason });
    expect(rise("nobody_to_ask")).toBe(1);
    expect(rise("late")).toBe(1);
  });

  it("labels HTTP requests with the route pattern, never the raw URL", async () => {
    const { teamId } = await workspace([]);
    const cookie = await t.signIn(teamId, `U${teamId.slice(1)}ADMIN`);
    const missing = await t.inject({
      method: "DELETE",
      url: "/dashboard/api/standups/SSECRETID42",
      headers: { cookie },
    });
    expect(missing.statusCode).toBe(404);
    await t.inject({ method: "GET", url: "/no/such/page/TOKEN123" });
    const res = await t.inject({ method: "GET", url: "/metrics" });
    expect(res.body).not.toContain("SSECRETID42");
    expect(res.body).not.toContain("TOKEN123");
    expect(res.body).not.toContain(teamId);
    expect(parsePrometheusTextFormat(res.body).map((f) => f.name)).toContain("upbeat_http_request_duration_seconds");
    expect(
      histogramCount(res.body, "upbeat_http_request_duration_seconds", {
        route: "/dashboard/api/standups/:id",
        method: "DELETE",
        status_code: "404",
      }),
    ).toBe(1);
    expect(
      histogramCount(res.body, "upbeat_http_request_duration_seconds", { route: "unmatched", status_code: "404" }),
    ).toBeGreaterThanOrEqual(1);
  });
});

describe("the job queue depth gauge", async () => {
  const t = await useTestApp();

  it("has a series per queue and state, and counts a job waiting in its queue", async () => {
    await t.installTeam("T0QD1");
    t.fake.addChannel("T0QD1", { id: "C0QD1", name: "qd", members: ["B0QD1BOT"] });
    await createSchedule(t.deps.db, t.clock, { teamId: "T0QD1", channelId: "C0QD1", time: "09:00", tz: "UTC" });
    t.clock.set("2026-03-03T09:00:02Z");
    expect((await tick(t.deps)).started).toHaveLength(1);
    // The fan-out job waits until drained. pg-boss's counts are what the gauge shows (kept fresh by its monitor
    // while workers run, at most a minute old otherwise): this is the queue's first reading.
    const families = await scrape(t);
    const series = family(families, "upbeat_job_queue_jobs").metrics;
    for (const queue of t.deps.queue.names) {
      for (const state of ["ready", "deferred", "active"]) {
        expect(
          series.some((m) => m.labels?.queue === queue && m.labels?.state === state),
          `${queue} ${state}`,
        ).toBe(true);
      }
    }
    expect(t.deps.queue.names.length).toBeGreaterThan(10);
    expect(value(families, "upbeat_job_queue_jobs", { queue: "standup.fanout", state: "ready" })).toBe(1);
    expect(value(families, "upbeat_job_queue_jobs", { queue: "standup.ask", state: "ready" })).toBe(0);
  });
});

describe("GET /metrics with METRICS_TOKEN", async () => {
  const token = "metrics-token-0123456789abcdef";
  const t = await useTestApp({ env: { METRICS_TOKEN: token } });

  it("answers 401 without the token or with a wrong one, and 200 with it", async () => {
    const none = await t.inject({ method: "GET", url: "/metrics" });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ error: "Unauthorized" });
    expect(none.headers["www-authenticate"]).toMatch(/^Bearer /);
    for (const authorization of [`Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`, `Basic ${token}`, token]) {
      const wrong = await t.inject({ method: "GET", url: "/metrics", headers: { authorization } });
      expect(wrong.statusCode, authorization).toBe(401);
      expect(wrong.json()).toEqual({ error: "Unauthorized" });
    }
    const families = await scrape(t, { authorization: `Bearer ${token}` });
    expect(families.map((f) => f.name)).toContain("upbeat_standup_dms_sent_total");
  });
});

describe("GET /metrics in production", () => {
  it("is off (404) without METRICS_TOKEN, and says so at start", async () => {
    const t = await createTestApp({ env: { NODE_ENV: "production", APP_URL: "https://upbeat.example.test" } });
    try {
      expect(t.deps.config.notices).toContain("METRICS_TOKEN is not set: GET /metrics is off");
      const res = await t.inject({ method: "GET", url: "/metrics" });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: "Not found" });
    } finally {
      await t.close();
    }
  });
});
