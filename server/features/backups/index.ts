/**
 * Backups (issue 26): one consistent backup (dump, manifest, files) by hand or every night, once
 * across every node; restore and verify; the last backup for the admin area and /metrics.
 */
export { backupsRoutes } from "./backups.routes.ts";
export { backupSource } from "./backup-source.ts";
export { runManualBackup, runNightlyBackup, type NightlyOutcome } from "./backup-jobs.ts";
export { lastSuccessfulBackupAt } from "./backup-runs.ts";
export { readManifest } from "./backup-manifest.ts";
export { restoreBackup, verifyBackup, type RestoreReport } from "./restore.service.ts";
