import { loadConfig } from "../config.ts";
import { DataDirLockedError, openDatabase } from "../db/client.ts";
import { moveFilesToS3 } from "./move-to-s3.ts";
import { createStorage } from "./storage.ts";

/**
 * `npm run storage:migrate`: moves the files of the local folder (DATA_DIR/files) to the bucket of
 * the S3_* variables (move-to-s3.ts; docs/OPERATIONS.md, "Moving files to object storage"). Safe to
 * run again; exits 1 when a file could not be moved (missing, changed or failed), naming each.
 */
const config = loadConfig();
if (!config.S3_BUCKET) {
  console.error(
    "S3_BUCKET is not set: set the S3_* variables to the bucket the files should move to (docs/OPERATIONS.md).",
  );
  process.exit(2);
}
// The embedded database is one process's: the server must be stopped (on PostgreSQL it may serve on).
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR }).catch(
  (err: unknown) => {
    if (!(err instanceof DataDirLockedError)) throw err;
    console.error(err.message);
    process.exit(2);
  },
);
const storage = await createStorage(config);
let exitCode = 0;
try {
  console.log(`Moving files from the local folder to the ${storage.describe()}.`);
  const r = await moveFilesToS3(database.db, storage, (line) => console.log(`  ${line}`));
  const notMoved = r.missing + r.changed + r.failed;
  console.log(
    [
      `Files referred to: ${r.files}`,
      `moved now: ${r.moved}`,
      `already in the bucket: ${r.alreadyInBucket}`,
      `missing locally: ${r.missing}`,
      `changed locally: ${r.changed}`,
      `failed: ${r.failed}`,
      `skipped (changed meanwhile): ${r.skipped}`,
    ].join("; ") + ".",
  );
  console.log(
    notMoved === 0
      ? "Every file is in the bucket and checked. The local folder's copies are no longer read; remove them when you will."
      : `${notMoved} file(s) not moved: their rows still point at the local folder. Fix what is named above and run again.`,
  );
  if (notMoved > 0) exitCode = 1;
} finally {
  await storage.close();
  await database.close();
}
process.exit(exitCode);
