import { randomUUID } from "node:crypto";
import path from "node:path";
import { PassThrough, type Readable } from "node:stream";
import type { Config } from "../config.ts";
import {
  StoredFileMissing,
  type DriverName,
  type Expected,
  type OpenedFile,
  type S3Settings,
  type StorageDriver,
} from "./driver.ts";
import { createLocalDriver } from "./local-driver.ts";
import type { FileDigest } from "./metered.ts";

export {
  StoredFileChanged,
  StoredFileMissing,
  type DriverName,
  type Expected,
  type OpenedFile,
  type S3Settings,
  type StorageDriver,
} from "./driver.ts";
export type { FileDigest } from "./metered.ts";

/**
 * A stored file's key names its place (decision 0024): `s3:<object key>` is an object in the
 * bucket (S3_BUCKET), any other key a path under DATA_DIR/files. Rows keep the key, so a file
 * stays readable wherever it was written, and `npm run storage:migrate` moves a file by copying it
 * and then switching its row's key. New keys are namespaced by company:
 * `companies/<company id>/attachments/<uuid>`, `companies/<company id>/logos/<uuid>` (the prefix is
 * the caller's; files stored before issue 26 have `attachments/<company id>/<uuid>` and
 * `logos/<company id>/<uuid>`).
 */
export const S3_KEY_PREFIX = "s3:";
export const driverOfKey = (key: string): DriverName => (key.startsWith(S3_KEY_PREFIX) ? "s3" : "local");

/**
 * Where files live (ctx.storage). Every file of the app goes through it: attachments (with ledger
 * documents), company logos, and whatever later stores files. Keys are made here, never from a
 * client's file name.
 *
 * For a backup or any job that must see every stored file: `listStoredFiles(db)`
 * (stored-files.ts) gives every file the database refers to, with its key, size and SHA-256 (null
 * for old rows), `read(key)` its bytes, `list()` what is actually stored (to find files no row
 * refers to), and `write(key, source)` puts a file back at its key on restore.
 */
export interface Storage {
  /** Where new files go: "s3" when S3_BUCKET is set, else "local". */
  readonly driver: DriverName;
  /** For the start-up log line: the folder, or the bucket and endpoint (never a credential). */
  describe(): string;
  /**
   * Streams `source` to a new server-generated key under `prefix` (in the driver new files go to),
   * counting and hashing on the way. Past maxBytes, or cut off at the multipart limit, it answers
   * 413 and leaves nothing stored.
   */
  put(prefix: string, source: Readable, maxBytes: number): Promise<FileDigest & { key: string }>;
  /**
   * The bytes as they are stored, unchecked (a missing file errors the stream with
   * StoredFileMissing). For copies and backups, which hash what they read; never serve a download
   * from it: use open().
   */
  read(key: string): Readable;
  /**
   * The file, once its bytes have been checked against the size and SHA-256 its row recorded:
   * rejects with StoredFileMissing or StoredFileChanged before a byte is handed out (the local
   * driver hashes the open file first; S3 copies the object to DATA_DIR/tmp while hashing it).
   * With no recorded hash (old rows) it answers the hash it computed, for the caller to record.
   */
  open(key: string, expected: Expected): Promise<OpenedFile>;
  /** Writes at exactly `key` (a restore, storage:migrate), replacing what is there. */
  write(key: string, source: Readable): Promise<FileDigest>;
  /** Deletes the file; a missing one is not an error. */
  remove(key: string): Promise<void>;
  /**
   * What is stored, key (as rows hold it) and size, in no promised order: one driver's files, or
   * the local folder's then the bucket's (when S3 is configured).
   */
  list(driver?: DriverName): AsyncIterable<{ key: string; size: number }>;
  close(): Promise<void>;
}

/** The S3 settings of the configuration, or null when S3_BUCKET is unset. */
export function s3SettingsOf(config: Config): S3Settings | null {
  if (!config.S3_BUCKET) return null;
  return {
    bucket: config.S3_BUCKET,
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  };
}

/**
 * The app's storage: the local folder always (files written before a move to S3 stay readable),
 * and the bucket when S3_BUCKET is set, where new files then go. The AWS SDK is loaded only then,
 * so the embedded default never loads it.
 */
export async function createStorage(config: Config): Promise<Storage> {
  const dataDir = path.resolve(config.DATA_DIR);
  const local = createLocalDriver(path.join(dataDir, "files"));
  const settings = s3SettingsOf(config);
  const s3 = settings
    ? (await import("./s3-driver.ts")).createS3Driver(settings, path.join(dataDir, "tmp"))
    : null;
  return storageOver(local, s3);
}

/** The storage over its drivers: keys routed by their prefix, new files to the bucket when there is one. */
export function storageOver(local: StorageDriver, s3: StorageDriver | null): Storage {
  const route = (key: string): [StorageDriver, string] => {
    if (driverOfKey(key) === "local") return [local, key];
    if (!s3) throw new StoredFileMissing(key); // in a bucket, but this node has none configured
    return [s3, key.slice(S3_KEY_PREFIX.length)];
  };
  const primary = s3 ?? local;
  const marked = (driver: StorageDriver, key: string) =>
    driver.name === "s3" ? `${S3_KEY_PREFIX}${key}` : key;
  return {
    driver: primary.name,
    describe: () => primary.describe(),
    async put(prefix, source, maxBytes) {
      const key = `${prefix}/${randomUUID()}`;
      const digest = await primary.write(key, source, maxBytes);
      return { key: marked(primary, key), ...digest };
    },
    read(key) {
      try {
        const [driver, own] = route(key);
        return driver.read(own);
      } catch (err) {
        return new PassThrough().destroy(err as Error);
      }
    },
    async open(key, expected) {
      const [driver, own] = route(key);
      return driver.open(own, expected);
    },
    async write(key, source) {
      const [driver, own] = route(key);
      return driver.write(own, source);
    },
    async remove(key) {
      if (driverOfKey(key) === "s3" && !s3) return; // a bucket this node cannot reach: left there
      const [driver, own] = route(key);
      await driver.remove(own);
    },
    async *list(which) {
      for (const driver of [local, s3]) {
        if (!driver || (which && driver.name !== which)) continue;
        for await (const file of driver.list()) yield { key: marked(driver, file.key), size: file.size };
      }
    },
    async close() {
      await s3?.close();
    },
  };
}
