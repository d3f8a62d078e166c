import path from "node:path";
import { parseArgs } from "node:util";
import { CONTROL_TOKEN_HEADER, CSRF_HEADER, CSRF_HEADER_VALUE } from "../../shared/domain/constants.ts";
import { RunBackupReportSchema, type RunBackupReport } from "../../shared/schemas/backups.ts";
import { loadConfig, type Config } from "../config.ts";
import { openDatabase, readDataDirLock } from "../db/client.ts";
import { createStorage } from "../storage/storage.ts";
import { backupSource, runManualBackup } from "../features/backups/index.ts";
import { chooseTarget } from "./reminders-cli.ts";

/**
 * `npm run backup -- --out DIR`: one consistent backup into a new folder under DIR (BACKUP_DIR when
 * --out is not given): the database dump, the manifest, and the files when they are local
 * (docs/OPERATIONS.md, "Backups"). Where it runs is decided as for `npm run reminders`: on
 * PostgreSQL here (pg_dump must be installed); on the embedded database here when no server holds
 * the data folder, else by the running server (asked over loopback with the control token).
 */

const USAGE = `Usage: npm run backup -- --out DIR
  --out DIR   the folder to write the backup into (a new permitrack-backup-<time> folder; default BACKUP_DIR)`;

function report(r: RunBackupReport): string {
  const mb = (r.totalBytes / 1024 / 1024).toFixed(1);
  return `Backup written to ${r.dir}: ${r.tables} tables, ${r.rows} rows, ${r.files} files, ${mb} MB, in ${(r.ms / 1000).toFixed(1)} s.`;
}

async function onServer(target: { base: string; token: string }, out: string): Promise<RunBackupReport> {
  const res = await fetch(`${target.base}/api/internal/backups/run`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      [CSRF_HEADER]: CSRF_HEADER_VALUE,
      [CONTROL_TOKEN_HEADER]: target.token,
    },
    body: JSON.stringify({ out }),
    signal: AbortSignal.timeout(6 * 60 * 60_000),
  });
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const message = (data as { message?: string } | null)?.message ?? res.statusText;
    throw new Error(`The running server could not take the backup (${res.status}): ${message}`);
  }
  return RunBackupReportSchema.parse(data);
}

async function here(config: Config, out: string): Promise<RunBackupReport> {
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    // The app's store (server/app.ts): the local folder under DATA_DIR, and the bucket when S3_BUCKET is set.
    const storage = await createStorage(config);
    const result = await runManualBackup(
      database.db,
      backupSource({ config, database, storage }),
      out,
    ).finally(() => storage.close());
    const counts = Object.values(result.manifest.tables);
    return {
      dir: result.dir,
      totalBytes: result.manifest.totalBytes,
      ms: result.ms,
      tables: counts.length,
      rows: counts.reduce((a, b) => a + b, 0),
      files: result.manifest.files.items.length,
    };
  } finally {
    await database.close();
  }
}

async function main() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { out: { type: "string" }, help: { type: "boolean", short: "h", default: false } },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  const outArg = values.out ?? config.BACKUP_DIR;
  if (!outArg) throw new Error(`Say where the backup goes: --out DIR (or set BACKUP_DIR).\n${USAGE}`);
  const out = path.resolve(outArg);
  const target = chooseTarget(config, config.DATABASE_URL ? null : readDataDirLock(config.DATA_DIR));
  if (target.kind === "server")
    console.log(`A Permitrack server holds ${config.DATA_DIR}; asking it to take the backup.`);
  console.log(report(target.kind === "server" ? await onServer(target, out) : await here(config, out)));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
