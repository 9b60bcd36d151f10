import { finished, type Readable } from "node:stream";
import type { SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { PgDialect } from "drizzle-orm/pg-core";
import type pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import type { Db, Executor } from "./client.ts";

const dialect = new PgDialect();

/**
 * `COPY (…) TO STDOUT …` on one connection of a PostgreSQL pool, as a byte stream with backpressure (the socket is
 * read only as fast as the stream is consumed).
 *
 * The connection runs a read-only REPEATABLE READ transaction: `build` may query first (with the executor it is
 * given, on the same snapshot) and returns the COPY statement. COPY takes no bind parameters, so the statement's
 * parameters are inlined as string literals ('' doubled), which is exact because the transaction sets
 * standard_conforming_strings on.
 *
 * The connection goes back to the pool when the stream has ended and the transaction committed. If the stream
 * errors or is destroyed before its end (the consumer went away), the connection is closed instead (pg destroys the
 * socket of a client ended mid-query): the server's backend then fails its next write and ends, so neither a pool
 * slot nor a server backend is left behind.
 */
export async function copyOut(pool: pg.Pool, build: (ex: Executor) => Promise<SQL>): Promise<Readable> {
  const client = await pool.connect();
  let released = false;
  const release = (err?: Error) => {
    if (released) return;
    released = true;
    client.release(err ?? false);
  };
  try {
    await client.query("begin transaction isolation level repeatable read, read only");
    await client.query("set local standard_conforming_strings = on");
    // Plans for a stream: without parallel workers (their Gather Merge sits on a full sort, so the first byte
    // waits for the whole result) and without JIT (compiling costs more than it saves on a per-row projection).
    await client.query("set local max_parallel_workers_per_gather = 0");
    await client.query("set local jit = off");
    const statement = await build(drizzle(client) as unknown as Db);
    const text = dialect.sqlToQuery(statement.inlineParams()).sql;
    const stream = client.query(copyTo(text));
    // Errors reach the consumer through its own listeners (pipeline); this one keeps a late error, e.g. the
    // connection's end after an abort, from being an unhandled 'error' event.
    stream.on("error", () => {});
    finished(stream, (err) => {
      if (err) return release(err);
      client.query("commit").then(
        () => release(),
        (e: unknown) => release(e instanceof Error ? e : new Error(String(e))),
      );
    });
    return stream;
  } catch (err) {
    release(err instanceof Error ? err : new Error(String(err)));
    throw err;
  }
}
