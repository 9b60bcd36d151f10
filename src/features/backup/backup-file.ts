import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, deflateRawSync } from "node:zlib";
import { z } from "zod";

/**
 * A backup file is a gzip file whose first member is empty and carries, in its comment field (RFC 1952, FCOMMENT),
 * what the file is: the manifest. Every gzip reader skips the comment and joins the members, so the file stays a
 * plain `.tar.gz` (embedded database: `tar -xzf` gives the data directory) or a gzipped `pg_dump` archive
 * (`gunzip -c FILE | pg_restore …`), while restore can read what it holds from the first bytes.
 */

export const BACKUP_FORMAT = "upbeat-backup";
export const BACKUP_FORMAT_VERSION = 1;
const COMMENT_PREFIX = `${BACKUP_FORMAT}:`;

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.number().int().positive(),
  /** What the payload is: a PGlite data directory (tar) or a PostgreSQL database (pg_dump custom format). */
  kind: z.enum(["pglite", "postgres"]),
  upbeatVersion: z.string(),
  /** The migration level of the copied database: how many were applied and the newest one's tag and time. */
  migrations: z.object({ count: z.number().int().nonnegative(), last: z.string(), when: z.number() }),
  createdAt: z.string(),
  /** For the embedded database: the PGlite version that wrote the directory. */
  pgliteVersion: z.string().optional(),
  /** For PostgreSQL: the server's version. */
  serverVersion: z.string().optional(),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

const GZIP_MAGIC = [0x1f, 0x8b];
const FLAG_EXTRA = 0x04;
const FLAG_NAME = 0x08;
const FLAG_COMMENT = 0x10;

/** The first member: no data, the manifest as its comment (ASCII only: JSON escapes anything else). */
export function manifestMember(manifest: BackupManifest): Buffer {
  const json = JSON.stringify(manifest).replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  const header = Buffer.from([...GZIP_MAGIC, 8, FLAG_COMMENT, 0, 0, 0, 0, 0, 255]);
  // An empty deflate stream, then CRC-32 and length of no data (both zero).
  return Buffer.concat([
    header,
    Buffer.from(`${COMMENT_PREFIX}${json}\0`, "latin1"),
    deflateRawSync(Buffer.alloc(0)),
    Buffer.alloc(8),
  ]);
}

export class NotABackup extends Error {}

/** How many leading bytes are read to find the manifest (it is a few hundred). */
const HEAD_BYTES = 16_384;

/** The manifest at the start of `file`, or NotABackup saying why the file is not one. */
export async function readManifest(file: string): Promise<BackupManifest> {
  const handle = await open(file, "r");
  let head: Buffer;
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buf, 0, HEAD_BYTES, 0);
    head = buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  const comment = gzipComment(head);
  if (comment === undefined || !comment.startsWith(COMMENT_PREFIX)) {
    throw new NotABackup(`${file} is not an Upbeat backup (made by npm run backup or a daily snapshot)`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(comment.slice(COMMENT_PREFIX.length));
  } catch {
    throw new NotABackup(`${file} has a damaged Upbeat backup header`);
  }
  const version = (parsed as { formatVersion?: unknown }).formatVersion;
  if (typeof version === "number" && version > BACKUP_FORMAT_VERSION) {
    throw new NotABackup(
      `${file} is an Upbeat backup of format ${version}; this version reads format ${BACKUP_FORMAT_VERSION}: restore it with a newer Upbeat`,
    );
  }
  const manifest = manifestSchema.safeParse(parsed);
  if (!manifest.success) throw new NotABackup(`${file} has a damaged Upbeat backup header`);
  return manifest.data;
}

/** The comment of the gzip member starting `head`, if it is gzip and has one. */
function gzipComment(head: Buffer): string | undefined {
  if (head.length < 10 || head[0] !== GZIP_MAGIC[0] || head[1] !== GZIP_MAGIC[1] || head[2] !== 8) return undefined;
  const flags = head[3]!;
  if (!(flags & FLAG_COMMENT)) return undefined;
  let at = 10;
  if (flags & FLAG_EXTRA) at += 2 + head.readUInt16LE(at);
  if (flags & FLAG_NAME) at = head.indexOf(0, at) + 1;
  if (at <= 0 || at >= head.length) return undefined;
  const end = head.indexOf(0, at);
  return end < 0 ? undefined : head.toString("latin1", at, end);
}

/**
 * Reads the whole file through gunzip (streamed, nothing kept), so a copy cut short or damaged is found before a
 * restore changes anything: on PostgreSQL, `--clean` drops the database's tables before pg_restore reads the file.
 * Every gzip member ends with the CRC-32 and length of its data, so a truncation or a flipped byte fails here.
 */
export async function checkWhole(file: string): Promise<void> {
  const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
  try {
    await pipeline(createReadStream(file), createGunzip(), discard);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new NotABackup(`${file} is damaged or incomplete (${why}): nothing was restored; use another copy`);
  }
}
