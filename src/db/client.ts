import { chmodSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import type { ExtractTablesWithRelations, sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { pgliteTemplate } from "../lib/build-paths.ts";
import { lockDataDir } from "./data-dir-lock.ts";
import * as schema from "./schema.ts";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything that runs queries: the database or an open transaction. */
export type Executor = Db | Tx;

export interface Database {
  readonly kind: "pglite" | "postgres";
  readonly db: Db;
  /** Set for the embedded database (pg-boss and the test snapshot need the instance itself). */
  readonly pglite?: PGlite;
  /** Set for a PostgreSQL server. */
  readonly pool?: pg.Pool;
  readonly url: string;
  /**
   * A statement of constant text with its parameters, straight to the driver: for the hottest paths (every Slack
   * event), where building the query per call costs more than running it. `name` makes it a prepared statement on
   * PostgreSQL (parsed once per connection); one name per text.
   */
  query<T>(text: string, params: unknown[], name?: string): Promise<T[]>;
  /** Resolves when the database answers `select 1` within the timeout, rejects otherwise. */
  ping(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

export interface OpenOptions {
  /** A PGlite data dir dump to start from (tests clone a migrated template this way). */
  loadDataDir?: Blob | File;
  /**
   * A new embedded data directory starts from this dump of a migrated database (`.tar` or `.tar.gz`) when it exists;
   * default: the one `npm run build` saves for the installed PGlite version. Migrations still run after it (any
   * the dump lacks are applied).
   */
  initdbTemplate?: string | URL;
  poolMax?: number;
  /**
   * A statement with more bind parameters than this throws before it reaches the database (tests set it). A
   * statement whose parameters grow with a list works for small lists and fails for big ones (PostgreSQL's limit is
   * 65,535); statements of constant text stay far below this, so a test whose data is only modestly big catches one.
   */
  maxBindParameters?: number;
  /** Who holds an embedded data directory, as `npm run backup` names the holder it refuses; default: the script. */
  holder?: string;
}

/**
 * Throws for a statement with more than `max` parameters. Drizzle hands every statement it runs to its logger
 * before running it (both drivers, transactions too), so the check costs one comparison per statement.
 */
export function bindParameterGuard(max: number): { logQuery(query: string, params: unknown[]): void } {
  return {
    logQuery(query, params) {
      if (params.length > max) throw new TooManyBindParameters(params.length, max, query);
    },
  };
}

export class TooManyBindParameters extends Error {
  constructor(count: number, max: number, query: string) {
    super(
      `statement with ${count} bind parameters (at most ${max} here): pass a list as one array (src/db/arrays.ts): ${query.slice(0, 200)}`,
    );
  }
}

/**
 * Makes the embedded data directory the owner's alone (0700, as PostgreSQL requires of its own): PGlite writes the
 * database's files readable and writable by everyone (0666), and they hold encrypted bot tokens, names, e-mail
 * addresses and answers. A directory left open by an earlier version is closed at open; one owned by someone else
 * (a volume mounted as it is) keeps its mode, as before.
 */
function ownerOnly(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    chmodSync(dir, 0o700);
  } catch {
    // Not ours to change: the operator decided who may enter it.
  }
}

/** The installed PGlite's version (its package.json is not exported: found beside its entry point). */
export const PGLITE_VERSION = (() => {
  let dir = dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"));
  while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;
})();

/** The dump a new data directory starts from, if there is one (else PGlite runs initdb). */
function templateFor(dir: string, given: string | URL | undefined): Blob | undefined {
  if (existsSync(`${dir}/PG_VERSION`)) return undefined;
  const file = given ?? pgliteTemplate(PGLITE_VERSION);
  if (!existsSync(file)) return undefined;
  const bytes = readFileSync(file);
  // A gzipped dump is unpacked here (zlib, native): PGlite's own gunzip takes about a second longer.
  return new Blob([bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes]);
}

export async function openDatabase(url: string, opts: OpenOptions = {}): Promise<Database> {
  if (url.startsWith("pglite://")) {
    const where = url.slice("pglite://".length);
    const memory = where === "memory" || where === "";
    if (!memory) ownerOnly(where);
    // Taken before PGlite touches the directory, so a second process is refused before it can do harm.
    const lock = memory ? undefined : lockDataDir(where, opts.holder ?? basename(process.argv[1] ?? "upbeat"));
    let pglite: PGlite;
    try {
      const loadDataDir = opts.loadDataDir ?? (memory ? undefined : templateFor(where, opts.initdbTemplate));
      pglite = await PGlite.create(memory ? undefined : where, { ...(loadDataDir ? { loadDataDir } : {}) });
    } catch (err) {
      lock?.release();
      throw err;
    }
    const guard = opts.maxBindParameters ? bindParameterGuard(opts.maxBindParameters) : undefined;
    const db = drizzlePglite(pglite, { schema, ...(guard ? { logger: guard } : {}) }) as unknown as Db;
    let closed = false;
    return {
      kind: "pglite",
      db,
      pglite,
      url,
      async query<T>(text: string, params: unknown[]) {
        guard?.logQuery(text, params);
        return (await pglite.query<T>(text, params)).rows;
      },
      async ping(timeoutMs) {
        if (closed || pglite.closed) throw new Error("database is closed");
        await withTimeout(pglite.query("select 1"), timeoutMs, "database ping");
      },
      async close() {
        if (closed) return;
        closed = true;
        try {
          if (!pglite.closed) await pglite.close();
        } finally {
          lock?.release();
        }
      },
    };
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.poolMax ?? 20,
    connectionTimeoutMillis: 2_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on("error", () => {});
  // No JIT: the dashboard's aggregates cost enough for PostgreSQL to compile them (jit_above_cost), which took
  // 0.1–0.9 s per statement against 0.1–0.8 s of execution (issue 27, 5,000 members). A query sent on a fresh
  // client runs before any other (a client runs its queries in order); a failure surfaces on the next query.
  pool.on("connect", (client) => {
    client.query("set jit = off").catch(() => {});
  });
  const guard = opts.maxBindParameters ? bindParameterGuard(opts.maxBindParameters) : undefined;
  const db = drizzlePg(pool, { schema, ...(guard ? { logger: guard } : {}) }) as unknown as Db;
  let closed = false;
  return {
    kind: "postgres",
    db,
    pool,
    url,
    async query<T>(text: string, params: unknown[], name?: string) {
      guard?.logQuery(text, params);
      const res = await pool.query({ text, values: params, ...(name ? { name } : {}) });
      return res.rows as T[];
    },
    async ping(timeoutMs) {
      await withTimeout(pool.query("select 1"), timeoutMs, "database ping");
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/** Rows of a raw query, whichever driver ran it. */
export async function rows<T>(ex: Executor, query: ReturnType<typeof sql>): Promise<T[]> {
  const res = (await ex.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}
