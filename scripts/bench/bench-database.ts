/**
 * A benchmark's database of its own: a fresh PostgreSQL database created on BENCH_DATABASE_URL's
 * server and dropped after, or a PGlite directory under the temp folder; migrated.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { acquireDataDirLock, openDatabase, type Database, type DataDirLock } from "../../server/db/client.ts";
import { migrateDatabase } from "../../server/db/migrate.ts";
import type { DbKind } from "./lib.ts";

/** The PostgreSQL server the benchmarks create their databases on (BENCH_PG_URL: the old name). */
export const PG_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface BenchDatabase {
  kind: DbKind;
  /** The server's DATA_DIR (files, outbox; on PGlite the database under pglite/). */
  dataDir: string;
  /** PostgreSQL only: the URL of the database created for this run. */
  databaseUrl?: string;
  /** Open until suspend() (PGlite is one process per directory: a server child needs it closed). */
  database: Database;
  /** PGlite only: the embedded instance behind `database`, for replaying statements on it. */
  pglite?: PGlite;
  suspend(): Promise<void>;
  resume(): Promise<Database>;
  /** Closes, drops the PostgreSQL database and removes the data directory. */
  dispose(): Promise<void>;
}

/** A fresh, migrated database of the given kind; `label` names it (permitrack_<label>_<time>). */
export async function createBenchDatabase(kind: DbKind, label: string): Promise<BenchDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `permitrack-${label}-`));
  let databaseUrl: string | undefined;
  let admin: pg.Client | undefined;
  const name = `permitrack_${label.replace(/\W/g, "_")}_${Date.now().toString(36)}`;
  if (kind === "pg") {
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  let lock: DataDirLock | undefined;
  let open = false;
  const bench: BenchDatabase = {
    kind,
    dataDir,
    databaseUrl,
    database: undefined as unknown as Database,
    async resume() {
      if (kind === "pg") {
        bench.database = await openDatabase({ databaseUrl });
        open = true;
      } else {
        lock = acquireDataDirLock(dataDir);
        open = true;
        const dir = path.join(dataDir, "pglite");
        fs.mkdirSync(dir, { recursive: true });
        bench.pglite = await PGlite.create(dir);
        bench.database = await openDatabase({ pglite: bench.pglite });
      }
      return bench.database;
    },
    async suspend() {
      if (!open) return;
      open = false;
      await bench.database.close();
      bench.pglite = undefined;
      lock?.release();
      lock = undefined;
    },
    async dispose() {
      try {
        await bench.suspend().catch(() => undefined);
      } finally {
        if (admin) {
          // pool.end() does not wait for the server to see its connections go; a forced drop would
          // cut them mid-goodbye (and the pool would log them as lost).
          for (let i = 0; i < 40; i++) {
            const left = await admin.query(`select 1 from pg_stat_activity where datname = $1`, [name]);
            if (!left.rowCount) break;
            await new Promise((r) => setTimeout(r, 50));
          }
          await admin.query(`drop database if exists ${name} with (force)`);
          await admin.end();
        }
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
  try {
    await bench.resume();
    await migrateDatabase(bench.database);
  } catch (err) {
    await bench.dispose();
    throw err;
  }
  return bench;
}
