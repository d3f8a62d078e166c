import fs from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { APP_VERSION } from "../../../shared/domain/constants.ts";
import type { Database } from "../../db/client.ts";
import type { Storage } from "../../storage/storage.ts";
import {
  MANIFEST_FILE,
  PARTIAL_SUFFIX,
  backupName,
  fileInBackup,
  hashFile,
  hashStream,
  type Manifest,
} from "./backup-manifest.ts";
import { readDumpedState, type DumpedState } from "./backup-tables.ts";
import { dumpPglite } from "./pglite-dump.ts";
import { dumpPostgres } from "./pg-dump.ts";

export interface BackupSource {
  database: Database;
  /** PostgreSQL's URL (pg_dump connects on its own); unset on the embedded database. */
  databaseUrl?: string;
  /** The files' store: read through it, whichever driver it is. */
  storage: Storage;
  /** True when the files live in an S3-compatible bucket: listed with their hashes, not copied. */
  filesInBucket: boolean;
  /** The data folder's generated session secret, to keep with the backup (null: SESSION_SECRET is set). */
  sessionSecretFile: string | null;
}

export interface BackupResult {
  dir: string;
  manifest: Manifest;
  ms: number;
}

/** Files read at once (a bucket answers each in a round trip). */
const FILE_CONCURRENCY = 4;

/**
 * Takes one consistent backup into a new folder under `outDir` (see backup-manifest.ts for what it
 * holds): the database dump with the row counts and file keys of its own snapshot, then each file
 * the rows refer to, read through the store and hashed (copied when local), then the manifest. It
 * is written as <name>.partial and renamed when whole; a failure removes it. Files added after the
 * snapshot are not in it, and files removed after it make the backup fail (run it again).
 */
export async function takeBackup(src: BackupSource, outDir: string, now = new Date()): Promise<BackupResult> {
  const started = performance.now();
  const name = backupName(now);
  const final = path.join(path.resolve(outDir), name);
  const dir = `${final}${PARTIAL_SUFFIX}`;
  if (fs.existsSync(final)) throw new Error(`${final} already exists`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    const db = await dumpDatabase(src, dir);
    const items = await mapLimit(db.state.fileKeys, FILE_CONCURRENCY, (key) => keepFile(src, dir, key));
    let sessionSecret = false;
    if (src.sessionSecretFile && fs.existsSync(src.sessionSecretFile)) {
      fs.copyFileSync(src.sessionSecretFile, path.join(dir, "session-secret"));
      fs.chmodSync(path.join(dir, "session-secret"), 0o600);
      sessionSecret = true;
    }
    const dumpFile = path.join(dir, db.file);
    const manifest: Manifest = {
      format: "permitrack-backup",
      version: 1,
      createdAt: now.toISOString(),
      appVersion: APP_VERSION,
      database: {
        kind: src.database.kind,
        file: db.file,
        ...(await hashFile(dumpFile)),
        serverVersion: db.serverVersion,
      },
      tables: db.state.tables,
      files: { storage: src.filesInBucket ? "bucket" : "local", items },
      sessionSecret,
      totalBytes: folderBytes(dir),
    };
    fs.writeFileSync(path.join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, {
      mode: 0o600,
    });
    fs.renameSync(dir, final);
    return { dir: final, manifest, ms: Math.round(performance.now() - started) };
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

async function dumpDatabase(
  src: BackupSource,
  dir: string,
): Promise<{ file: Manifest["database"]["file"]; state: DumpedState; serverVersion: string }> {
  const { database } = src;
  if (database.kind === "pg") {
    if (!src.databaseUrl) throw new Error("a backup on PostgreSQL needs DATABASE_URL");
    const file = "database.dump";
    const { serverVersion, ...state } = await dumpPostgres(src.databaseUrl, path.join(dir, file));
    return { file, state, serverVersion };
  }
  const pg = database.pglite!;
  const file = "database.sql.gz";
  const gzip = zlib.createGzip({ level: 6 });
  const written = pipeline(gzip, fs.createWriteStream(path.join(dir, file), { mode: 0o600 }));
  written.catch(() => undefined); // awaited below
  const state = await dumpPglite(pg, gzip, (tx) =>
    readDumpedState(async (text, params) => (await tx.query(text, params)).rows as never),
  );
  gzip.end();
  await written;
  const {
    rows: [version],
  } = await pg.query<{ v: string }>("select current_setting('server_version') as v");
  return { file, state, serverVersion: version!.v };
}

/** Reads one stored file through the store, hashing it; writes it under files/ when the store is local. */
async function keepFile(src: BackupSource, dir: string, key: string) {
  let source: Readable;
  try {
    source = src.storage.read(key);
  } catch (err) {
    throw new Error(`the stored file ${key} could not be read: ${(err as Error).message}`, { cause: err });
  }
  try {
    if (src.filesInBucket) return { key, ...(await hashStream(source)) };
    const target = fileInBackup(dir, key);
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    const hash = createHash("sha256");
    let bytes = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(source, tap, fs.createWriteStream(target, { mode: 0o600 }));
    return { key, bytes, sha256: hash.digest("hex") };
  } catch (err) {
    throw new Error(`the stored file ${key} could not be read: ${(err as Error).message}`, { cause: err });
  }
}

/** Runs fn over items, at most `limit` at a time, keeping their order. */
async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Bytes of everything under a folder. */
export function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}
