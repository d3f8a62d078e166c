import os from "node:os";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { jobRuns } from "../../db/schema.ts";

/**
 * The job claim (issue 26): a job that must run once whatever the number of app nodes inserts its
 * run's row first; the unique (job, run_key) lets one insert land, and only that node runs it. A
 * run left 'running' past the lease (its node died) may be claimed again.
 */

export const BACKUP_JOB = "backup";
/** A backup still 'running' after this long was abandoned (its node died). */
export const RUN_LEASE_MS = 3 * 60 * 60_000;

/** Host name and process id: which node ran a job, for the operator. */
export const thisNode = () => `${os.hostname()}:${process.pid}`;

/** Claims (job, runKey) for this node; null when another node has it (or had it, and finished). */
export async function claimRun(
  db: Db,
  job: string,
  runKey: string,
  now = new Date(),
): Promise<string | null> {
  const stale = new Date(now.getTime() - RUN_LEASE_MS).toISOString();
  const [row] = await db
    .insert(jobRuns)
    .values({ job, runKey, node: thisNode(), startedAt: now })
    .onConflictDoUpdate({
      target: [jobRuns.job, jobRuns.runKey],
      set: { node: thisNode(), startedAt: now, status: "running", error: null },
      setWhere: sql`${jobRuns.status} = 'running' and ${jobRuns.startedAt} < ${stale}::timestamptz`,
    })
    .returning({ id: jobRuns.id });
  return row?.id ?? null;
}

export async function finishRun(
  db: Db,
  id: string,
  result:
    | { status: "succeeded"; location: string; sizeBytes: number }
    | { status: "failed"; error: string; location?: string },
): Promise<void> {
  await db
    .update(jobRuns)
    .set({ ...result, finishedAt: new Date() })
    .where(eq(jobRuns.id, id));
}

export interface LastBackup {
  status: "succeeded" | "failed" | "running";
  startedAt: Date;
  finishedAt: Date | null;
  location: string | null;
  sizeBytes: number | null;
  error: string | null;
}

/**
 * The latest backup: the newest run that finished, or one in progress started after it (a run
 * still 'running' past the lease was abandoned and is passed over).
 */
export async function lastBackup(db: Db, now = new Date()): Promise<LastBackup | null> {
  const stale = new Date(now.getTime() - RUN_LEASE_MS);
  const rows = await db
    .select({
      status: jobRuns.status,
      startedAt: jobRuns.startedAt,
      finishedAt: jobRuns.finishedAt,
      location: jobRuns.location,
      sizeBytes: jobRuns.sizeBytes,
      error: jobRuns.error,
    })
    .from(jobRuns)
    .where(
      and(
        eq(jobRuns.job, BACKUP_JOB),
        sql`(${jobRuns.status} <> 'running' or ${jobRuns.startedAt} >= ${stale.toISOString()}::timestamptz)`,
      ),
    )
    .orderBy(desc(jobRuns.startedAt))
    .limit(1);
  const row = rows[0];
  return row ? { ...row, status: row.status as LastBackup["status"] } : null;
}

/** When the newest successful backup finished (for /metrics), or null. */
export async function lastSuccessfulBackupAt(db: Db): Promise<Date | null> {
  const [row] = await db
    .select({ at: jobRuns.finishedAt })
    .from(jobRuns)
    .where(and(eq(jobRuns.job, BACKUP_JOB), eq(jobRuns.status, "succeeded")))
    .orderBy(desc(jobRuns.finishedAt))
    .limit(1);
  return row?.at ?? null;
}
