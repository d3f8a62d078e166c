import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { PassThrough } from "node:stream";
import zlib from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { PGLITE_START_PARAMS } from "../../db/client.ts";
import { createPgliteDirectory, isPgliteDirectory } from "../../db/pglite-create.ts";
import type { Manifest } from "./backup-manifest.ts";
import { APP_SCHEMAS, countRows, type SnapshotQuery } from "./backup-tables.ts";
import { restorePostgresDump } from "./pg-dump.ts";
import { connection, pgProgram, runProgram } from "./pg-tools.ts";
import { loadSqlDump } from "./sql-load.ts";

/**
 * Loading a backup's dump into a database: PostgreSQL (by URL) or an embedded one (a folder), from
 * either kind of dump. PostgreSQL's custom format goes to PostgreSQL with pg_restore, and to PGlite
 * as the SQL pg_restore writes of it; the embedded database's SQL dump goes to PostgreSQL with psql
 * and to PGlite with loadSqlDump(). Each load is one transaction.
 */

export type DatabaseTarget = { kind: "pg"; url: string } | { kind: "pglite"; dir: string };

const withPg = async <T>(url: string, fn: (query: SnapshotQuery) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(async (text, params) => (await client.query(text, params)).rows);
  } finally {
    await client.end();
  }
};

const withPglite = async <T>(dir: string, fn: (db: PGlite) => Promise<T>): Promise<T> => {
  const db = await PGlite.create(dir, { startParams: PGLITE_START_PARAMS });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
};

const pgliteQuery =
  (db: PGlite): SnapshotQuery =>
  async <T>(text: string, params?: unknown[]) =>
    (await db.query<T>(text, params)).rows;

/** How many tables and sequences the app's schemas hold in the target (0: empty). */
export async function targetObjects(target: DatabaseTarget): Promise<number> {
  const count = async (query: SnapshotQuery) => {
    const [row] = await query<{ n: number }>(
      `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = any($1) and c.relkind in ('r', 'p', 'S', 'v', 'm')`,
      [APP_SCHEMAS],
    );
    return row!.n;
  };
  if (target.kind === "pg") return withPg(target.url, count);
  if (!isPgliteDirectory(target.dir)) return 0;
  return withPglite(target.dir, (db) => count(pgliteQuery(db)));
}

/** Empties the target (restore --force): the app's schemas dropped, or the embedded folder removed. */
export async function clearTarget(target: DatabaseTarget): Promise<void> {
  if (target.kind === "pglite") {
    fs.rmSync(target.dir, { recursive: true, force: true });
    return;
  }
  await withPg(target.url, async (query) => {
    await query("drop schema if exists drizzle cascade");
    await query("drop schema if exists public cascade");
    await query("create schema public");
  });
}

/** Loads the dump into the empty target, then returns its row counts. */
export async function loadDump(
  backupDir: string,
  manifest: Manifest,
  target: DatabaseTarget,
): Promise<Record<string, number>> {
  const file = path.join(backupDir, manifest.database.file);
  const sqlDump = manifest.database.kind === "pglite";
  if (target.kind === "pg") {
    if (sqlDump) {
      const { dbname, env } = connection(target.url);
      await runProgram(
        pgProgram("psql"),
        ["-X", "-q", "-v", "ON_ERROR_STOP=1", "--single-transaction", `--dbname=${dbname}`],
        { env, stdin: fs.createReadStream(file).pipe(zlib.createGunzip()) },
      );
    } else {
      await restorePostgresDump(file, target.url);
    }
    return withPg(target.url, countRows);
  }
  // A bare embedded database (initdb, no migrations: the dump brings the schema).
  await createPgliteDirectory(target.dir, undefined);
  return withPglite(target.dir, async (db) => {
    if (sqlDump) {
      await loadSqlDump(db, fs.createReadStream(file).pipe(zlib.createGunzip()));
    } else {
      // pg_restore writes the custom format out as the SQL psql would run.
      const sqlText = new PassThrough();
      const written = runProgram(
        pgProgram("pg_restore"),
        ["--no-owner", "--no-privileges", "--file=-", file],
        {
          stdout: sqlText,
        },
      ).finally(() => sqlText.end());
      await Promise.all([written, loadSqlDump(db, sqlText)]);
    }
    return countRows(pgliteQuery(db));
  });
}

/**
 * A scratch database for `--verify`, removed after: a temporary embedded one, or for a PostgreSQL
 * dump a new database on the server of `databaseUrl` (the role needs CREATEDB); without a server,
 * a PostgreSQL dump is checked in a temporary embedded database too.
 */
export async function withScratchTarget<T>(
  manifest: Manifest,
  databaseUrl: string | undefined,
  fn: (target: DatabaseTarget) => Promise<T>,
): Promise<T> {
  if (manifest.database.kind === "pg" && databaseUrl) {
    const name = `permitrack_verify_${randomBytes(6).toString("hex")}`;
    await withPg(databaseUrl, (query) => query(`create database ${name}`));
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    try {
      return await fn({ kind: "pg", url: url.toString() });
    } finally {
      await withPg(databaseUrl, (query) => query(`drop database if exists ${name} with (force)`));
    }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-verify-"));
  try {
    return await fn({ kind: "pglite", dir: path.join(dir, "pglite") });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
