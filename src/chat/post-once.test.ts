import type { WebClient } from "@slack/web-api";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../test/support/app.ts";
import { rows } from "../db/client.ts";
import { CLAIM_STALE_SECONDS, postOnce } from "./post-once.ts";

const TEAM = "T0ONCE";
const CHANNEL = "C0ONCE";
const BOT = "B0ONCEBOT";

/** A message whose send was lost (connection dropped after Slack stored it), buried under later traffic. */
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
      sql`insert into chat_posts (key, team_id, channel, state, attempts, updated_at) values (${key}, ${TEAM}, ${channel}, 'unknown', 1, now())`,
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
      sql`insert into chat_posts (key, team_id, channel, state, attempts, updated_at) values (${key}, ${TEAM}, ${CHANNEL}, 'unknown', 1, now())`,
    );

    const ts = await postOnce(t.deps, client, { key, teamId: TEAM, channel: CHANNEL, text: "first", threadTs });

    expect(withKey(key, CHANNEL).map((m) => m.ts)).toEqual([ts]);
    expect(t.fake.unexpected).toEqual([]);
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
