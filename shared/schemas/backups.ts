import { z } from "zod";

/** The last backup as the Admin Dashboard shows it to a super-admin (issue 26). */
export const LastBackupSchema = z.object({
  status: z.enum(["succeeded", "failed", "running"]),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** The backup folder's name under BACKUP_DIR (or the folder given to `npm run backup`). */
  location: z.string().nullable(),
  sizeBytes: z.number().nullable(),
  error: z.string().nullable(),
});

export const BackupStatusSchema = z.object({
  /** BACKUP_DIR is set: the server takes a backup every night. */
  nightly: z.boolean(),
  last: LastBackupSchema.nullable(),
});
export type BackupStatus = z.infer<typeof BackupStatusSchema>;

/** POST /api/internal/backups/run (the `npm run backup` command on the embedded database). */
export const RunBackupSchema = z.object({ out: z.string().min(1).max(4096) });
export const RunBackupReportSchema = z.object({
  dir: z.string(),
  totalBytes: z.number(),
  ms: z.number(),
  tables: z.number(),
  rows: z.number(),
  files: z.number(),
});
export type RunBackupReport = z.infer<typeof RunBackupReportSchema>;
