import pg from "pg";
import { readDumpedState, type DumpedState } from "./backup-tables.ts";
import { connection, pgProgram, runProgram } from "./pg-tools.ts";

/**
 * PostgreSQL's dump: pg_dump's custom format (compressed, pg_restore restores it, selectively if
 * need be). The row counts and file keys must be those of the dump: a transaction exports its
 * snapshot, pg_dump runs in that snapshot (--snapshot), and the counts are read in the same
 * transaction, which stays open until pg_dump has finished.
 */
export async function dumpPostgres(
  databaseUrl: string,
  file: string,
): Promise<DumpedState & { serverVersion: string }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    const { snapshot, version } = (
      await client.query<{ snapshot: string; version: string }>(
        "select pg_export_snapshot() as snapshot, current_setting('server_version') as version",
      )
    ).rows[0]!;
    const { dbname, env } = connection(databaseUrl);
    const dumped = runProgram(
      pgProgram("pg_dump"),
      [
        "--format=custom",
        "--no-owner",
        "--no-privileges",
        `--snapshot=${snapshot}`,
        `--file=${file}`,
        `--dbname=${dbname}`,
      ],
      { env },
    );
    dumped.catch(() => undefined); // awaited below, after the counts
    const state = await readDumpedState(async (text, params) => (await client.query(text, params)).rows);
    await dumped;
    await client.query("COMMIT");
    return { ...state, serverVersion: version };
  } finally {
    await client.end();
  }
}

/** Restores a custom-format dump into the (empty) database at databaseUrl, all or nothing. */
export function restorePostgresDump(file: string, databaseUrl: string): Promise<void> {
  const { dbname, env } = connection(databaseUrl);
  return runProgram(
    pgProgram("pg_restore"),
    ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", `--dbname=${dbname}`, file],
    { env },
  );
}
