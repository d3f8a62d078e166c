import path from "node:path";
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { users } from "../../db/schema.ts";
import type { Mailer } from "../../mail/mailer.ts";
import { takeBackup, type BackupResult, type BackupSource } from "./backup.service.ts";
import { BACKUP_JOB, claimRun, finishRun, thisNode } from "./backup-runs.ts";
import { pruneBackups } from "./retention.ts";

export interface NightlyOptions {
  db: Db;
  source: BackupSource;
  mailer: Mailer;
  publicUrl: string;
  /** BACKUP_DIR, and the retention: BACKUP_KEEP_DAILY, BACKUP_KEEP_WEEKLY. */
  dir: string;
  keepDaily: number;
  keepWeekly: number;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export type NightlyOutcome =
  | { outcome: "skipped" }
  | { outcome: "succeeded"; location: string; sizeBytes: number; ms: number; removed: string[] }
  | { outcome: "failed"; error: string; ms: number };

/** The night a run belongs to: its UTC date (every node computes the same key). */
export const nightOf = (now: Date) => now.toISOString().slice(0, 10);

/**
 * A backup taken by hand (`npm run backup -- --out DIR`): recorded like the nightly ones (the admin
 * area shows the last of either), not pruned, its failure thrown to the command that asked.
 */
export async function runManualBackup(
  db: Db,
  source: BackupSource,
  out: string,
  now = new Date(),
): Promise<BackupResult> {
  const runId = (await claimRun(db, BACKUP_JOB, `manual-${now.toISOString()}`, now))!;
  try {
    const result = await takeBackup(source, out, now);
    await finishRun(db, runId, {
      status: "succeeded",
      location: path.basename(result.dir),
      sizeBytes: result.manifest.totalBytes,
    });
    return result;
  } catch (err) {
    const error = (err instanceof Error ? err.message : String(err)).slice(0, 2000);
    await finishRun(db, runId, { status: "failed", error }).catch(() => undefined);
    throw err;
  }
}

/**
 * The nightly backup: claimed once across every node for the night (job_runs), taken into
 * BACKUP_DIR, recorded (the admin area and /metrics read the record), then the retention applied.
 * A failure is recorded and e-mailed to every active super-admin; it never throws.
 */
export async function runNightlyBackup(o: NightlyOptions, now = new Date()): Promise<NightlyOutcome> {
  const runId = await claimRun(o.db, BACKUP_JOB, nightOf(now), now);
  if (!runId) return { outcome: "skipped" };
  const started = performance.now();
  try {
    const result = await takeBackup(o.source, o.dir, now);
    const location = path.basename(result.dir);
    await finishRun(o.db, runId, { status: "succeeded", location, sizeBytes: result.manifest.totalBytes });
    const removed = pruneBackups(o.dir, o.keepDaily, o.keepWeekly, now);
    o.log.info(
      { backup: result.dir, bytes: result.manifest.totalBytes, ms: result.ms, removed },
      "backup taken",
    );
    return { outcome: "succeeded", location, sizeBytes: result.manifest.totalBytes, ms: result.ms, removed };
  } catch (err) {
    const error = (err instanceof Error ? err.message : String(err)).slice(0, 2000);
    o.log.error({ err }, "backup failed");
    await finishRun(o.db, runId, { status: "failed", error }).catch((e: unknown) =>
      o.log.error({ err: e }, "the backup's failure could not be recorded"),
    );
    await mailFailure(o, now, error).catch((e: unknown) =>
      o.log.error({ err: e }, "the backup's failure could not be e-mailed"),
    );
    return { outcome: "failed", error, ms: Math.round(performance.now() - started) };
  }
}

async function mailFailure(
  o: Pick<NightlyOptions, "db" | "mailer" | "publicUrl" | "dir">,
  now: Date,
  error: string,
) {
  const admins = await o.db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.role, "super-admin"), eq(users.banned, false)));
  for (const { email } of admins) {
    await o.mailer.send({
      to: email,
      subject: "Permitrack backup failed",
      text: [
        `The backup of ${o.publicUrl} started at ${now.toISOString()} on ${thisNode()} failed:`,
        "",
        error,
        "",
        `Backups go to ${o.dir}. The last good one is shown on the Admin Dashboard; see docs/OPERATIONS.md,`,
        `"Backups", to take one by hand (npm run backup -- --out DIR) once the cause is fixed.`,
      ].join("\n"),
    });
  }
}
