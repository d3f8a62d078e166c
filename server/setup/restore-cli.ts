import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../config.ts";
import { acquireDataDirLock, DataDirLockedError } from "../db/client.ts";
import { createStorage } from "../storage/storage.ts";
import { readManifest, restoreBackup, verifyBackup } from "../features/backups/index.ts";

/**
 * `npm run restore -- BACKUP [--verify] [--force]` (docs/OPERATIONS.md, "Restoring"):
 *   restore   into DATABASE_URL (or the embedded database under DATA_DIR) and DATA_DIR/files, which
 *             must be empty: refused otherwise, unless --force (which replaces what is there). The
 *             app must be stopped (on the embedded database the data folder's lock makes sure).
 *   --verify  restores into a scratch database instead (a temporary embedded one; for a PostgreSQL
 *             dump a new database on DATABASE_URL's server) and compares every table's row count
 *             and every file's SHA-256 with the manifest; exits 1 on any difference.
 */

const USAGE = `Usage: npm run restore -- BACKUP [--verify] [--force]
  BACKUP    a backup folder (permitrack-backup-<time>) written by npm run backup or the nightly backup
  --verify  restore into a scratch database and compare with the manifest; change nothing
  --force   replace a database and data folder that are not empty`;

async function main() {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    options: {
      verify: { type: "boolean", default: false },
      force: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (positionals.length !== 1) throw new Error(`Name one backup folder.\n${USAGE}`);
  const dir = path.resolve(positionals[0]!);
  const config = loadConfig();
  const manifest = readManifest(dir);
  // The app's store (server/app.ts), to check a bucket's objects against.
  const storage = await createStorage(config);
  const log = (line: string) => console.log(line);
  console.log(
    `Backup of ${manifest.createdAt} (Permitrack ${manifest.appVersion}, ${manifest.database.kind === "pg" ? "PostgreSQL" : "embedded"} ${manifest.database.serverVersion}): ` +
      `${Object.keys(manifest.tables).length} tables, ${manifest.files.items.length} files ${manifest.files.storage === "local" ? "in the backup" : "in the bucket"}.`,
  );

  if (values.verify) {
    const { problems } = await verifyBackup(dir, {
      databaseUrl: config.DATABASE_URL,
      storage: manifest.files.storage === "bucket" ? storage : undefined,
      log,
    });
    if (problems.length) {
      console.error(`The backup does NOT restore as it was taken:\n  ${problems.join("\n  ")}`);
      process.exit(1);
    }
    const rows = Object.values(manifest.tables).reduce((a, b) => a + b, 0);
    console.log(
      `Verified: every table's row count (${rows} rows in ${Object.keys(manifest.tables).length} tables) and every file's SHA-256 (${manifest.files.items.length}) match the manifest.`,
    );
    return;
  }

  // The embedded database is one process's: hold its folder, so that no server starts meanwhile.
  const lock = config.DATABASE_URL ? null : acquireDataDirLock(config.DATA_DIR);
  try {
    if (config.DATABASE_URL) console.log("Every app node must be stopped while the database is restored.");
    const result = await restoreBackup(
      dir,
      {
        databaseUrl: config.DATABASE_URL,
        dataDir: config.DATA_DIR,
        storage: manifest.files.storage === "bucket" ? storage : undefined,
        sessionSecretSet: Boolean(config.SESSION_SECRET),
      },
      { force: values.force, log },
    );
    console.log(
      `Restored ${result.rows} rows in ${result.tables} tables${manifest.files.storage === "local" ? ` and ${result.files} files into ${path.join(path.resolve(config.DATA_DIR), "files")}` : ""}; every row count matches the manifest.`,
    );
    if (result.bucketProblems.length) {
      console.error(
        `The bucket no longer holds these objects as they were at the backup (restore them from the bucket's versions):\n  ${result.bucketProblems.join("\n  ")}`,
      );
      process.exitCode = 1;
    }
    console.log("Start the app (npm start): it applies any newer migrations on the way.");
  } finally {
    lock?.release();
  }
}

main().catch((err: unknown) => {
  console.error(
    err instanceof DataDirLockedError
      ? `${err.message}\nStop the server before restoring.`
      : err instanceof Error
        ? err.message
        : err,
  );
  process.exit(1);
});
