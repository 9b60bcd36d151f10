import { randomBytes } from "node:crypto";
import type { Executor } from "../../src/db/client.ts";
import { kudos } from "../../src/db/schema.ts";

/** A kudo given at an exact instant (the e-mail digest counts them by week), written straight to the table. */
export async function seedKudo(ex: Executor, teamId: string, at: Date): Promise<void> {
  await ex.insert(kudos).values({
    teamId,
    fromUser: "U0GIVER",
    toUser: "U0TAKER",
    message: "thanks",
    channelId: "C0KUDOS",
    source: "command",
    sourceKey: `cmd:${randomBytes(6).toString("hex")}`,
    givenOn: at.toISOString().slice(0, 10),
    createdAt: at,
  });
}
