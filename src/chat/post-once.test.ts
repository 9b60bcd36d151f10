import { Writable } from "node:stream";
import { WebClient } from "@slack/web-api";
import { sql } from "drizzle-orm";
import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useTestApp } from "../../test/support/app.ts";
import { rows } from "../db/client.ts";
import { CLAIM_STALE_SECONDS, PostInFlightError, postOnce } from "./post-once.ts";
import { slackLogger } from "./slack-logger.ts";
import { webClientOptions } from "./web-client.ts";

const TEAM = "T0ONCE";
const CHANNEL = "C0ONCE";
const BOT = "B0ONCEBOT";

/**
 * A message whose send was lost (connection dropped after Slack stored it), buried under later traffic. The retry
 * comes once the failed call is long over (the claim is stale), as a job's retry after its backoff does.
 */
describe("postOnce after an ambiguous failure", async () => {
  const t = await useTestApp();
  await t.installTeam(TEAM);
  t.fake.addUser(TEAM, { id: "U0ONCE", name: "once", real_name: "Once" });
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "once", members: ["U0ONCE", BOT] });
  const client: WebClient = await t.deps.chat.forTeam(TEAM, "post");

  const sentBefore = async (key: string, channel: string, threadTs?: string): Promise<string> => {
    const res = await client.chat.postMessage({
      channel,
      text: "sent before the connection dropped",
      ...(threadTs ? { thread_ts: threadTs } : {}),
      metadata: { event_type: "upbeat_post", event_payload: { post_key: key } },
    });
    await t.deps.db.execute(
      sql`insert into chat_posts (key, team_id, channel, state, attempts, updated_at) values (${key}, ${TEAM}, ${channel}, 'unknown', 1, now() - make_interval(secs => ${CLAIM_STALE_SECONDS + 1}))`,
    );
    return res.ts as string;
  };
  const traffic = async (n: number, channel: string, threadTs?: string) => {
    for (let i = 0; i < n; i++)
      await client.chat.postMessage({ channel, text: `other ${i}`, ...(threadTs ? { thread_ts: threadTs } : {}) });
  };
  const withKey = (key: string, channel: string) =>
    t.fake.messages(channel).filter((m) => m.metadata?.event_payload.post_key === key);
  const claim = async (key: string) =>
    (await rows<{ state: string; ts: string }>(t.deps.db, sql`select state, ts from chat_posts where key = ${key}`))[0];

  it("finds a thread reply beyond the first page of replies (a thread of 250 replies) instead of posting it twice", async () => {
    const parent = await client.chat.postMessage({ channel: CHANNEL, text: "Standup" });
    const threadTs = parent.ts as string;
    await traffic(250, CHANNEL, threadTs);
    const key = "test:late-reply";
    const lost = await sentBefore(key, CHANNEL, threadTs);
    const before = t.fake.callsTo("conversations.replies").length;

    const ts = await postOnce(t.deps, client, { key, teamId: TEAM, channel: CHANNEL, text: "again", threadTs });

    expect(ts).toBe(lost);
    expect(withKey(key, CHANNEL)).toHaveLength(1);
    expect(await claim(key)).toEqual({ state: "sent", ts: lost });
    const lookups = t.fake.callsTo("conversations.replies").slice(before);
    expect(lookups.length).toBeGreaterThanOrEqual(2);
    expect(lookups.every((c) => c.ok)).toBe(true);
    expect(lookups[1]!.args.cursor).toEqual(expect.any(String));
  });

  it("finds a top-level message older than the first page of the channel's history", async () => {
    const dm = t.fake.dmFor(TEAM, "U0ONCE");
    const key = "test:buried-dm";
    const lost = await sentBefore(key, dm);
    await traffic(250, dm);

    const ts = await postOnce(t.deps, client, { key, teamId: TEAM, channel: dm, text: "again" });

    expect(ts).toBe(lost);
    expect(withKey(key, dm)).toHaveLength(1);
    expect(await claim(key)).toEqual({ state: "sent", ts: lost });
  });

  it("posts once when the lookup reads the whole thread and the message is not there", async () => {
    const parent = await client.chat.postMessage({ channel: CHANNEL, text: "Standup 2" });
    const threadTs = parent.ts as string;
    await traffic(210, CHANNEL, threadTs);
    const key = "test:never-arrived";
    await t.deps.db.execute(
      sql`insert into chat_posts (key, team_id, channel, state, attempts, updated_at) values (${key}, ${TEAM}, ${CHANNEL}, 'unknown', 1, now() - make_interval(secs => ${CLAIM_STALE_SECONDS + 1}))`,
    );

    const ts = await postOnce(t.deps, client, { key, teamId: TEAM, channel: CHANNEL, text: "first", threadTs });

    expect(withKey(key, CHANNEL).map((m) => m.ts)).toEqual([ts]);
    expect(t.fake.unexpected).toEqual([]);
  });

  it("calls onPosted once per message: when it posts, when it finds a lost attempt's message, never when already sent", async () => {
    const posted: string[] = [];
    const onPosted = (key: string) => ({ onPosted: () => void posted.push(key) });
    const spec = (key: string) => ({ key, teamId: TEAM, channel: CHANNEL, text: "counted" });
    await postOnce(t.deps, client, spec("test:count-fresh"), onPosted("test:count-fresh"));
    await postOnce(t.deps, client, spec("test:count-fresh"), onPosted("test:count-fresh"));
    await sentBefore("test:count-lost", CHANNEL);
    await postOnce(t.deps, client, spec("test:count-lost"), onPosted("test:count-lost"));
    await postOnce(t.deps, client, spec("test:count-lost"), onPosted("test:count-lost"));
    expect(posted).toEqual(["test:count-fresh", "test:count-lost"]);
    expect(withKey("test:count-lost", CHANNEL)).toHaveLength(1);
  });
});

/** A worker that claimed a message and died before recording the outcome (kill -9 mid-send), or one still sending. */
describe("postOnce and a claim another worker holds", async () => {
  const t = await useTestApp();
  await t.installTeam(TEAM);
  t.fake.addUser(TEAM, { id: "U0HELD", name: "held", real_name: "Held" });
  const client: WebClient = await t.deps.chat.forTeam(TEAM, "post");
  const dm = t.fake.dmFor(TEAM, "U0HELD");
  const withKey = (key: string) => t.fake.messages(dm).filter((m) => m.metadata?.event_payload.post_key === key);
  /** A `sending` claim last touched this many seconds ago (by the database's clock). */
  const heldSince = (key: string, secondsAgo: number) =>
    t.deps.db.execute(
      sql`insert into chat_posts (key, team_id, channel, state, attempts, updated_at)
          values (${key}, ${TEAM}, ${dm}, 'sending', 1, now() - make_interval(secs => ${secondsAgo}))`,
    );
  const claim = async (key: string) =>
    (
      await rows<{ state: string; ts: string | null; attempts: number }>(
        t.deps.db,
        sql`select state, ts, attempts from chat_posts where key = ${key}`,
      )
    )[0];

  it("takes over a stale claim and finds the message the dead worker's call posted, instead of posting again", async () => {
    const key = "test:died-after-posting";
    const landed = await client.chat.postMessage({
      channel: dm,
      text: "posted by the worker that died",
      metadata: { event_type: "upbeat_post", event_payload: { post_key: key } },
    });
    await heldSince(key, CLAIM_STALE_SECONDS + 5);
    const started = Date.now();

    const ts = await postOnce(t.deps, client, { key, teamId: TEAM, channel: dm, text: "again" });

    expect(Date.now() - started).toBeLessThan(2_000);
    expect(ts).toBe(landed.ts);
    expect(withKey(key)).toHaveLength(1);
    expect(await claim(key)).toEqual({ state: "sent", ts: landed.ts, attempts: 2 });
  });

  it("waits for a fresh claim to go stale, then posts once: a crash delays a message by seconds, not a job retry", async () => {
    const key = "test:died-before-posting";
    await heldSince(key, CLAIM_STALE_SECONDS - 1);
    const started = Date.now();

    const ts = await postOnce(t.deps, client, { key, teamId: TEAM, channel: dm, text: "posted by the next worker" });

    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(withKey(key).map((m) => m.ts)).toEqual([ts]);
    expect(await claim(key)).toEqual({ state: "sent", ts, attempts: 2 });
  });

  it("returns what a live owner posted once it records it, and posts nothing itself", async () => {
    const key = "test:owner-alive";
    await heldSince(key, 0);
    const calls = t.fake.callsTo("chat.postMessage").length;
    const waiting = postOnce(t.deps, client, { key, teamId: TEAM, channel: dm, text: "not needed" });
    await new Promise((resolve) => setTimeout(resolve, 400));
    await t.deps.db.execute(sql`update chat_posts set state = 'sent', ts = '1.000100' where key = ${key}`);

    expect(await waiting).toBe("1.000100");
    expect(t.fake.callsTo("chat.postMessage")).toHaveLength(calls);
  });

  it("checks beforeSend again after waiting: a message no longer wanted then is not sent, the claim left alone", async () => {
    const key = "test:unwanted-after-wait";
    await heldSince(key, CLAIM_STALE_SECONDS - 0.5);
    let checks = 0;
    const beforeSend = async () => {
      checks += 1;
      if (checks > 1) throw new Error("the run was stopped meanwhile");
    };

    await expect(
      postOnce(t.deps, client, { key, teamId: TEAM, channel: dm, text: "x" }, { beforeSend }),
    ).rejects.toThrow("stopped meanwhile");
    expect(checks).toBe(2);
    expect(withKey(key)).toEqual([]);
    expect(await claim(key)).toMatchObject({ state: "sending", attempts: 1 });
  });
});

/**
 * An owner whose Slack call timed out (Slack may still complete it), and an owner that stalled long enough to have
 * its claim taken over: neither may lead to a second copy.
 */
describe("postOnce fencing", async () => {
  const t = await useTestApp();
  await t.installTeam(TEAM);
  t.fake.addUser(TEAM, { id: "U0FENCE", name: "fence", real_name: "Fence" });
  const client: WebClient = await t.deps.chat.forTeam(TEAM, "post");
  const dm = t.fake.dmFor(TEAM, "U0FENCE");
  const withKey = (key: string) => t.fake.messages(dm).filter((m) => m.metadata?.event_payload.post_key === key);
  const claim = async (key: string) =>
    (
      await rows<{ state: string; ts: string | null; attempts: number }>(
        t.deps.db,
        sql`select state, ts, attempts from chat_posts where key = ${key}`,
      )
    )[0];
  /** Another worker takes the claim over (it presumed its owner dead). */
  const takeOver = (key: string) =>
    t.deps.db.execute(
      sql`update chat_posts set state = 'sending', attempts = attempts + 1, updated_at = now() where key = ${key}`,
    );
  const lostBefore = (key: string) =>
    t.deps.db.execute(
      sql`insert into chat_posts (key, team_id, channel, state, attempts, updated_at)
          values (${key}, ${TEAM}, ${dm}, 'unknown', 1, now() - make_interval(secs => ${CLAIM_STALE_SECONDS + 1}))`,
    );
  /** What postOnce logs, as parsed lines. */
  const logged = () => {
    const lines: Record<string, unknown>[] = [];
    const log = pino(
      { level: "info" },
      new Writable({
        write(chunk, _enc, done) {
          lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
          done();
        },
      }),
    );
    return { deps: { db: t.deps.db, log }, lines };
  };
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("leaves an `unknown` claim alone while Slack may still complete the timed-out call: the waiter finds that message instead of posting again", async () => {
    const key = "test:timed-out";
    // The owner gives up on its call after 0.3 s; Slack handles it after 1.5 s all the same.
    const impatient = new WebClient(`xoxb-${TEAM.toLowerCase()}-token`, {
      ...webClientOptions(t.deps.config, "post", slackLogger(t.deps.log, "slack-web-api")),
      timeout: 300,
    });
    t.fake.fail("chat.postMessage", { delayMs: 1_500 });
    const owner = postOnce(t.deps, impatient, { key, teamId: TEAM, channel: dm, text: "first" });
    const ownerDone = owner.then(
      () => "posted",
      () => "failed",
    );
    await expect.poll(() => claim(key), { interval: 5 }).toBeDefined();
    // A second job posting the same message waits on the owner's claim, and sees it turn `unknown` at 0.3 s.
    const waiter = postOnce(t.deps, client, { key, teamId: TEAM, channel: dm, text: "again" });
    expect(await ownerDone).toBe("failed");
    expect((await claim(key))?.state).toBe("unknown");
    // Slack completes the timed-out call at 1.5 s; all that while the waiter has left the claim alone.
    await expect.poll(() => withKey(key).length, { interval: 20, timeout: 10_000 }).toBe(1);
    expect(await claim(key)).toEqual({ state: "unknown", ts: null, attempts: 1 });
    // The claim goes stale (CLAIM_STALE_SECONDS pass) without the test waiting them out: its time moves back.
    await t.deps.db.execute(
      sql`update chat_posts set updated_at = now() - make_interval(secs => ${CLAIM_STALE_SECONDS + 1}) where key = ${key}`,
    );

    const ts = await waiter;

    expect(withKey(key).map((m) => [m.ts, m.text])).toEqual([[ts, "first"]]);
    expect(await claim(key)).toEqual({ state: "sent", ts, attempts: 2 });
    expect(t.fake.callsTo("chat.postMessage").filter((c) => c.args.metadata !== undefined && c.ok)).toHaveLength(1);
  }, 60_000);

  it("an owner that stalled after its lookup touches its claim again before posting, finds it taken over and posts nothing", async () => {
    const key = "test:stalled-after-lookup";
    await lostBefore(key);
    const realNow = performance.now.bind(performance);
    let checks = 0;
    const beforeSend = async () => {
      checks += 1;
      if (checks === 2) {
        // Right before posting, after the lookup found nothing: this worker stalls for 30 s (the monotonic clock
        // jumps), and another worker takes its claim over meanwhile.
        vi.spyOn(performance, "now").mockImplementation(() => realNow() + 30_000);
        await takeOver(key);
      }
    };

    await expect(
      postOnce(t.deps, client, { key, teamId: TEAM, channel: dm, text: "x" }, { beforeSend }),
    ).rejects.toBeInstanceOf(PostInFlightError);
    expect(checks).toBe(2);
    expect(withKey(key)).toEqual([]);
    expect(await claim(key)).toEqual({ state: "sending", ts: null, attempts: 3 });
  });

  it("checks beforeSend again after the lookup: a message no longer wanted is not sent, and the claim says so", async () => {
    const key = "test:unwanted-after-lookup";
    await lostBefore(key);
    let checks = 0;
    const beforeSend = async () => {
      checks += 1;
      if (checks > 1) throw new Error("the run was stopped meanwhile");
    };

    await expect(
      postOnce(t.deps, client, { key, teamId: TEAM, channel: dm, text: "x" }, { beforeSend }),
    ).rejects.toThrow("stopped meanwhile");
    expect(checks).toBe(2);
    expect(withKey(key)).toEqual([]);
    expect(await claim(key)).toEqual({ state: "failed", ts: null, attempts: 2 });
  });

  it("checks beforeSend again after an inline Retry-After wait", async () => {
    const key = "test:unwanted-after-retry-after";
    t.fake.fail("chat.postMessage", { status: 429, retryAfter: 1 });
    let checks = 0;
    const beforeSend = async () => {
      checks += 1;
      if (checks > 1) throw new Error("the run was stopped meanwhile");
    };

    await expect(
      postOnce(t.deps, client, { key, teamId: TEAM, channel: dm, text: "x" }, { beforeSend }),
    ).rejects.toThrow("stopped meanwhile");
    expect(checks).toBe(2);
    expect(withKey(key)).toEqual([]);
    expect(await claim(key)).toEqual({ state: "failed", ts: null, attempts: 1 });
  });

  it("an owner whose claim was taken over while it posted does not overwrite the new owner's claim, and logs the possible duplicate", async () => {
    const key = "test:taken-over-mid-post";
    const { deps, lines } = logged();
    t.fake.fail("chat.postMessage", { delayMs: 2_000 });
    const owner = postOnce(deps, client, { key, teamId: TEAM, channel: dm, text: "secret words" });
    await expect.poll(() => claim(key), { interval: 5 }).toBeDefined();
    await takeOver(key);

    const ts = await owner;

    expect(withKey(key).map((m) => m.ts)).toEqual([ts]);
    expect(await claim(key)).toEqual({ state: "sending", ts: null, attempts: 2 });
    const errors = lines.filter((l) => l.level === 50);
    expect(errors).toEqual([
      expect.objectContaining({ msg: "claim taken over; possible duplicate", post_key: key, attempts: 1, ts }),
    ]);
    expect(JSON.stringify(lines)).not.toContain("secret words");
  });
});
