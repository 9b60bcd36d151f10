import { sql } from "drizzle-orm";
import { afterAll } from "vitest";
import { type FakeEmailProvider, startFakeEmail } from "../../dev/fake-email/index.ts";
import { type Executor, rows } from "../../src/db/client.ts";

/** A fake e-mail provider for a whole test file, closed after it, and the environment that points the app at it. */
export async function useFakeEmail(): Promise<{ fake: FakeEmailProvider; env: Record<string, string> }> {
  const fake = await startFakeEmail();
  afterAll(() => fake.close());
  return { fake, env: { EMAIL_API_KEY: fake.apiKey, EMAIL_API_URL: fake.url } };
}

export function emailEnv(fake: FakeEmailProvider): Record<string, string> {
  return { EMAIL_API_KEY: fake.apiKey, EMAIL_API_URL: fake.url };
}

/** The e-mail claims of a workspace, oldest key first. */
export function emailClaims(ex: Executor, teamId: string) {
  return rows<{
    key: string;
    kind: string;
    user_id: string;
    state: string;
    attempts: number;
    week_start: string | null;
  }>(
    ex,
    sql`select key, kind, user_id, state, attempts, week_start::text as week_start from email_sends
        where team_id = ${teamId} order by key`,
  );
}

/** Jobs of the e-mail queue in any state (pg-boss keeps completed ones for a while). */
export async function emailJobCount(ex: Executor): Promise<number> {
  const [row] = await rows<{ n: number }>(ex, sql`select count(*)::int as n from pgboss.job where name = 'email.send'`);
  return Number(row?.n ?? 0);
}

/** Whether the member gets the weekly digest: on unless a row says off. */
export async function digestOn(ex: Executor, teamId: string, userId: string): Promise<boolean> {
  const [row] = await rows<{ digest: boolean }>(
    ex,
    sql`select digest from email_preferences where team_id = ${teamId} and user_id = ${userId}`,
  );
  return row?.digest ?? true;
}
