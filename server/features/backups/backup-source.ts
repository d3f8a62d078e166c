import path from "node:path";
import type { Config } from "../../config.ts";
import type { Database } from "../../db/client.ts";
import type { Storage } from "../../storage/storage.ts";
import type { BackupSource } from "./backup.service.ts";

/** What a backup reads, from the server's (or a command's) configuration, database and store. */
export function backupSource(o: {
  config: Pick<Config, "DATABASE_URL" | "DATA_DIR" | "SESSION_SECRET" | "S3_BUCKET">;
  database: Database;
  storage: Storage;
}): BackupSource {
  return {
    database: o.database,
    // The URL the pool was opened with (DATABASE_URL; a test's own database).
    databaseUrl:
      o.config.DATABASE_URL ??
      (o.database.pool?.options as { connectionString?: string } | undefined)?.connectionString,
    storage: o.storage,
    filesInBucket: Boolean(o.config.S3_BUCKET),
    // The generated secret of the embedded default (app.ts sessionSecret()); none when SESSION_SECRET is set.
    sessionSecretFile: o.config.SESSION_SECRET
      ? null
      : path.join(path.resolve(o.config.DATA_DIR), "session-secret"),
  };
}
