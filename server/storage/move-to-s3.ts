import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { attachments, companies, conditionTasks, requestFiles } from "../db/schema.ts";
import {
  driverOfKey,
  S3_KEY_PREFIX,
  StoredFileChanged,
  StoredFileMissing,
  type FileDigest,
  type OpenedFile,
  type Storage,
} from "./storage.ts";
import { listStoredFiles, type StoredFileRow } from "./stored-files.ts";

/** What one run of `npm run storage:migrate` did, file by file. */
export interface MoveReport {
  /** Files the database refers to. */
  files: number;
  /** Copied to the bucket, checked there, and their rows switched in this run. */
  moved: number;
  /** Already in the bucket before this run (a second run counts everything here). */
  alreadyInBucket: number;
  /** Not in the local folder (on another node's disk, or lost): left as they were. */
  missing: number;
  /** In the local folder but not the bytes their row recorded: left as they were, not copied. */
  changed: number;
  /** Anything else that failed (the bucket refused, the copy did not read back the same): left as they were. */
  failed: number;
  /** Rows deleted or given another file while this one was copied: the copy was removed again. */
  skipped: number;
}

/**
 * The bucket key of a local file: the same place in the company's namespace. Files stored before
 * issue 26 (`attachments/<company>/<uuid>`, `logos/<company>/<uuid>`) move to
 * `companies/<company>/attachments/<uuid>` and `companies/<company>/logos/<uuid>`.
 */
export function bucketKeyFor(localKey: string): string {
  const legacy = /^(attachments|logos)\/([0-9a-f-]+)\/([0-9a-f-]+)$/.exec(localKey);
  const key = legacy ? `companies/${legacy[2]}/${legacy[1]}/${legacy[3]}` : localKey;
  return `${S3_KEY_PREFIX}${key}`;
}

/**
 * Points the row at its new key (and records the checked hash), if it still refers to the old one.
 * An attachment made from an outside party's upload takes its request file along (they share the key).
 */
async function switchRow(db: Db, file: StoredFileRow, key: string, digest: FileDigest): Promise<boolean> {
  if (file.owner === "logo") {
    const switched = await db
      .update(companies)
      .set({ logoKey: key, logoSha256: digest.sha256, logoSize: digest.size })
      .where(and(eq(companies.id, file.id), eq(companies.logoKey, file.key)))
      .returning({ id: companies.id });
    return switched.length === 1;
  }
  if (file.owner === "evidence") {
    const switched = await db
      .update(conditionTasks)
      .set({ evidenceKey: key, evidenceSha256: digest.sha256 })
      .where(and(eq(conditionTasks.id, file.id), eq(conditionTasks.evidenceKey, file.key)))
      .returning({ id: conditionTasks.id });
    return switched.length === 1;
  }
  if (file.owner === "request_file") {
    const switched = await db
      .update(requestFiles)
      .set({ storageKey: key })
      .where(and(eq(requestFiles.id, file.id), eq(requestFiles.storageKey, file.key)))
      .returning({ id: requestFiles.id });
    return switched.length === 1;
  }
  return db.transaction(async (tx) => {
    const switched = await tx
      .update(attachments)
      .set({ storageKey: key, sha256: digest.sha256 })
      .where(and(eq(attachments.id, file.id), eq(attachments.storageKey, file.key)))
      .returning({ id: attachments.id });
    if (switched.length !== 1) return false;
    await tx
      .update(requestFiles)
      .set({ storageKey: key })
      .where(and(eq(requestFiles.attachmentId, file.id), eq(requestFiles.storageKey, file.key)));
    return true;
  });
}

/**
 * Moves every file of the local folder that the database refers to into the bucket: each is read
 * from the local folder and checked against its row (size, and SHA-256 when recorded), copied,
 * read back from the bucket and checked again, and only then is its row switched to the bucket
 * key, in one statement that also records the hash. Nothing is deleted from the local folder.
 * A second run finds every row already in the bucket and copies nothing. The servers may keep
 * serving meanwhile (on PostgreSQL): a row points at a complete, checked copy before and after.
 */
export async function moveFilesToS3(
  db: Db,
  storage: Storage,
  say: (line: string) => void = () => undefined,
): Promise<MoveReport> {
  if (storage.driver !== "s3") throw new Error("S3_BUCKET is not set: there is no bucket to move files to.");
  const report: MoveReport = {
    files: 0,
    moved: 0,
    alreadyInBucket: 0,
    missing: 0,
    changed: 0,
    failed: 0,
    skipped: 0,
  };
  const name = (f: StoredFileRow) => `${f.owner} ${f.id} (${f.key})`;
  for await (const file of listStoredFiles(db)) {
    report.files++;
    if (driverOfKey(file.key) === "s3") {
      report.alreadyInBucket++;
      continue;
    }
    const target = bucketKeyFor(file.key);
    let copied = false;
    let local: OpenedFile | null = null;
    try {
      local = await storage.open(file.key, { size: file.size, sha256: file.sha256 });
      const written = await storage.write(target, local.stream);
      copied = true;
      // Read back from the bucket: what is there is what the local folder held.
      const check = await storage.open(target, { size: local.size, sha256: local.sha256 });
      check.stream.destroy();
      if (written.sha256 !== local.sha256) throw new Error("the copy's hash differs from the file's");
      if (await switchRow(db, file, target, local)) report.moved++;
      else {
        report.skipped++;
        await storage.remove(target);
      }
    } catch (err) {
      local?.stream.destroy();
      if (copied) await storage.remove(target).catch(() => undefined);
      if (err instanceof StoredFileMissing && !copied) {
        report.missing++;
        say(`missing from the local folder: ${name(file)}`);
      } else if (err instanceof StoredFileChanged && !copied) {
        report.changed++;
        say(`not the bytes its row recorded, not copied: ${name(file)}`);
      } else {
        report.failed++;
        say(`failed: ${name(file)}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    if (report.files % 100 === 0) say(`... ${report.files} files looked at, ${report.moved} moved`);
  }
  return report;
}
