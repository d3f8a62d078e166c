import fs from "node:fs";
import path from "node:path";
import type { Storage } from "../../storage/storage.ts";
import { fileInBackup, hashFile, hashStream, readManifest, type Manifest } from "./backup-manifest.ts";
import {
  clearTarget,
  loadDump,
  targetObjects,
  withScratchTarget,
  type DatabaseTarget,
} from "./restore-database.ts";

export interface RestoreTarget {
  /** PostgreSQL's URL; unset: the embedded database under dataDir/pglite. */
  databaseUrl?: string;
  dataDir: string;
  /** The store a backup's bucket objects are checked against (when the files stayed in the bucket). */
  storage?: Storage;
  /** SESSION_SECRET is set: a backup's generated secret is not written to the data folder. */
  sessionSecretSet: boolean;
}

export interface RestoreReport {
  manifest: Manifest;
  tables: number;
  rows: number;
  files: number;
  /** Objects the bucket no longer holds as they were (a bucket backup): restore them from its versions. */
  bucketProblems: string[];
}

/**
 * What differs between the backup's files and its manifest: the dump's hash, and each local file's
 * presence, size and hash. Empty when the backup is as it was written.
 */
export async function checkAgainstManifest(dir: string, manifest: Manifest): Promise<string[]> {
  const problems: string[] = [];
  const dump = path.join(dir, manifest.database.file);
  if (!fs.existsSync(dump)) problems.push(`${manifest.database.file} is missing`);
  else if ((await hashFile(dump)).sha256 !== manifest.database.sha256)
    problems.push(`${manifest.database.file} does not match its SHA-256 in the manifest`);
  if (manifest.files.storage === "local") {
    for (const item of manifest.files.items) {
      const file = fileInBackup(dir, item.key);
      if (!fs.existsSync(file)) {
        problems.push(`file ${item.key} is missing`);
        continue;
      }
      const actual = await hashFile(file);
      if (actual.sha256 !== item.sha256 || actual.bytes !== item.bytes)
        problems.push(`file ${item.key} does not match its SHA-256 in the manifest`);
    }
  }
  return problems;
}

/** The tables whose row counts differ from the manifest's (or that only one side has). */
export function compareCounts(expected: Record<string, number>, actual: Record<string, number>): string[] {
  const problems: string[] = [];
  for (const [table, rows] of Object.entries(expected)) {
    if (!(table in actual)) problems.push(`table ${table} is missing after the restore`);
    else if (actual[table] !== rows)
      problems.push(`table ${table} has ${actual[table]} rows, the manifest says ${rows}`);
  }
  for (const table of Object.keys(actual))
    if (!(table in expected)) problems.push(`table ${table} is not in the manifest`);
  return problems;
}

/** Bucket objects listed in the manifest that are missing or changed in `storage`. */
async function checkBucket(manifest: Manifest, storage: Storage): Promise<string[]> {
  const problems: string[] = [];
  for (const item of manifest.files.items) {
    try {
      const actual = await hashStream(storage.read(item.key));
      if (actual.sha256 !== item.sha256) problems.push(`object ${item.key} has changed since the backup`);
    } catch (err) {
      problems.push(`object ${item.key} cannot be read: ${(err as Error).message}`);
    }
  }
  return problems;
}

const filesDir = (dataDir: string) => path.join(path.resolve(dataDir), "files");
const hasFiles = (dir: string) =>
  fs.existsSync(dir) && fs.readdirSync(dir, { recursive: true, withFileTypes: true }).some((e) => e.isFile());

/**
 * Restores a backup into an empty database and data folder. It checks the backup against its
 * manifest first (a changed dump or file: nothing is touched), refuses a target holding anything
 * unless `force` (then empties it), loads the dump, compares every table's row count with the
 * manifest, and puts the local files back under DATA_DIR/files (or checks the bucket's objects).
 * The caller holds the data folder's lock on the embedded database (no server may run on it).
 */
export async function restoreBackup(
  dir: string,
  target: RestoreTarget,
  opts: { force: boolean; log?: (line: string) => void },
): Promise<RestoreReport> {
  const log = opts.log ?? (() => undefined);
  const manifest = readManifest(dir);
  const damaged = await checkAgainstManifest(dir, manifest);
  if (damaged.length)
    throw new Error(
      `The backup does not match its manifest; nothing was restored:\n  ${damaged.join("\n  ")}`,
    );

  const db: DatabaseTarget = target.databaseUrl
    ? { kind: "pg", url: target.databaseUrl }
    : { kind: "pglite", dir: path.join(path.resolve(target.dataDir), "pglite") };
  const files = filesDir(target.dataDir);
  const secretFile = path.join(path.resolve(target.dataDir), "session-secret");
  const writesSecret = manifest.sessionSecret && !target.sessionSecretSet;
  const backupSecret = path.join(dir, "session-secret");
  const occupied: string[] = [];
  const objects = await targetObjects(db);
  if (objects) occupied.push(`the database holds ${objects} tables and sequences`);
  if (manifest.files.storage === "local" && hasFiles(files)) occupied.push(`${files} holds files`);
  if (
    writesSecret &&
    fs.existsSync(secretFile) &&
    fs.readFileSync(secretFile, "utf8") !== fs.readFileSync(backupSecret, "utf8")
  )
    occupied.push(`${secretFile} holds another secret`);
  if (occupied.length && !opts.force)
    throw new Error(
      `The target is not empty (${occupied.join("; ")}). Restore refuses to replace it: ` +
        `restore into an empty database and data folder, or pass --force to replace what is there.`,
    );
  if (occupied.length) {
    log(`--force: emptying the target (${occupied.join("; ")})`);
    await clearTarget(db);
    if (manifest.files.storage === "local") fs.rmSync(files, { recursive: true, force: true });
  }

  log(
    `Restoring the ${manifest.database.kind === "pg" ? "PostgreSQL" : "embedded"} dump into ${db.kind === "pg" ? "PostgreSQL" : db.dir}...`,
  );
  const counts = await loadDump(dir, manifest, db);
  const mismatched = compareCounts(manifest.tables, counts);
  if (mismatched.length)
    throw new Error(`The restored database does not match the manifest:\n  ${mismatched.join("\n  ")}`);

  let bucketProblems: string[] = [];
  if (manifest.files.storage === "local") {
    for (const item of manifest.files.items) {
      const to = fileInBackup(path.dirname(files), item.key); // DATA_DIR/files/<key>
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.copyFileSync(fileInBackup(dir, item.key), to);
      fs.chmodSync(to, 0o600);
    }
  } else if (target.storage) {
    bucketProblems = await checkBucket(manifest, target.storage);
  }
  if (writesSecret) {
    fs.mkdirSync(path.dirname(secretFile), { recursive: true });
    fs.copyFileSync(backupSecret, secretFile);
    fs.chmodSync(secretFile, 0o600);
  }
  return {
    manifest,
    tables: Object.keys(counts).length,
    rows: Object.values(counts).reduce((a, b) => a + b, 0),
    files: manifest.files.items.length,
    bucketProblems,
  };
}

/**
 * `restore --verify`: the backup against its manifest (dump and file hashes), then its dump restored
 * into a scratch database whose every table's row count must equal the manifest's; with the files
 * in a bucket, each object's hash through `storage` when given. Returns every problem found (none:
 * the backup restores as it was taken).
 */
export async function verifyBackup(
  dir: string,
  opts: { databaseUrl?: string; storage?: Storage; log?: (line: string) => void },
): Promise<{ manifest: Manifest; problems: string[] }> {
  const log = opts.log ?? (() => undefined);
  const manifest = readManifest(dir);
  const problems = await checkAgainstManifest(dir, manifest);
  log(`Restoring ${manifest.database.file} into a scratch database...`);
  try {
    const counts = await withScratchTarget(manifest, opts.databaseUrl, (scratch) =>
      loadDump(dir, manifest, scratch),
    );
    problems.push(...compareCounts(manifest.tables, counts));
  } catch (err) {
    problems.push(`the dump does not restore: ${(err as Error).message}`);
  }
  if (manifest.files.storage === "bucket" && opts.storage)
    problems.push(...(await checkBucket(manifest, opts.storage)));
  return { manifest, problems };
}
