import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import { MIGRATIONS_DIR } from "./migrate.ts";
import { createPgliteDirectory, isPgliteDirectory } from "./pglite-create.ts";
import * as schema from "./schema.ts";
import { nameReadStatements, StatementObservers, type StatementListener } from "./statements.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DbKind = "pglite" | "pg";

/**
 * Runs raw SQL, or a query built with drizzle, and returns its rows as the driver reads them (both
 * drivers answer `{ rows }`, one object per row keyed by column name, dates and timestamps as text),
 * without drizzle's row mapping. Cast counts with ::int.
 */
export async function queryRows<T>(db: Db, query: SQLWrapper): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * A selection for queryRows(): each field selected `as` its own key, so that the driver's row
 * objects come back with the keys drizzle's mapping would have given them (hot queries of many
 * rows skip that mapping: the list and the export).
 */
export function selectedAsKeys<K extends string>(fields: Record<K, SQLWrapper>): Record<K, SQL.Aliased> {
  return Object.fromEntries(
    Object.entries<SQLWrapper>(fields).map(([key, field]) => [key, sql`${field}`.as(key)]),
  ) as Record<K, SQL.Aliased>;
}

export interface Database {
  db: Db;
  kind: DbKind;
  /** The pg pool, on PostgreSQL only (migrations take an advisory lock on one connection of it). */
  pool?: pg.Pool;
  /** The embedded instance, on PGlite only (the backup reads it with COPY in one transaction). */
  pglite?: PGlite;
  /** Raw SQL for migrations, health checks and bulk work. */
  exec(sqlText: string): Promise<void>;
  /** Calls `listener` with every statement sent through `db` until the returned function is called. */
  observeStatements(listener: StatementListener): () => void;
  close(): Promise<void>;
}

// Dates stay calendar dates: never shift a `date` column through a JS Date in the server's zone.
pg.types.setTypeParser(1082, (v: string) => v);

export interface OpenOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** An already open PGlite (tests load a migrated snapshot into memory). */
  pglite?: PGlite;
  poolSize?: number;
  /** The caller already holds the data directory's lock (the server holds it for its lifetime). */
  lockHeld?: boolean;
  /** Told when the embedded database did not exist and was made (in a child process, decision 0015). */
  onCreated?: (dbDir: string, ms: number) => void;
}

/**
 * PGlite's own start parameters, with 16 MB of shared buffers instead of PostgreSQL's 128 MB: PGlite
 * touches all of them at start, so they count in full towards the server's memory, while pages that
 * do not fit are read from the operating system's file cache (decision 0015). Durability settings are
 * PGlite's own.
 */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"];

/** Opens PostgreSQL when a URL is given, else the embedded PGlite under dataDir/pglite. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const max = opts.poolSize ?? 10;
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max,
      // Opened as needed, then kept: no connection closed for being idle a while and opened again
      // at the next burst, and no idle timer set and cleared at every query (decision 0018).
      min: max,
      // A database that does not answer (down, unreachable, every connection busy) fails the
      // request within seconds (503 through the error handler) instead of holding it open.
      connectionTimeoutMillis: 5000,
      keepAlive: true,
    });
    // An idle connection dropped by the server (restart, failover) must not crash the process;
    // the pool replaces it on the next query.
    pool.on("error", (err) => console.warn(`PostgreSQL connection lost: ${err.message}`));
    // A connection checked out (a transaction in progress) has no pool listener: its 'error' when
    // the server goes away would be an unhandled 'error' event, which ends the process. The query
    // in flight fails by itself, and the pool drops the broken connection when it is released.
    pool.on("connect", (client) => {
      client.on("error", () => undefined);
      nameReadStatements(client);
    });
    const client = await pool.connect(); // fail fast with a clear error when unreachable
    client.release();
    const observers = new StatementObservers();
    return {
      db: drizzlePg(pool, { schema, casing: "snake_case", logger: observers }) as unknown as Db,
      kind: "pg",
      pool,
      observeStatements: (listener) => observers.observe(listener),
      exec: async (s) => {
        await pool.query(s);
      },
      close: () => pool.end(),
    };
  }
  let lock: DataDirLock | undefined;
  let client = opts.pglite;
  if (!client) {
    const dataDir = path.resolve(opts.dataDir ?? "./data");
    if (!opts.lockHeld) lock = acquireDataDirLock(dataDir);
    const dbDir = path.join(dataDir, "pglite");
    try {
      if (!isPgliteDirectory(dbDir)) {
        const created = await createPgliteDirectory(dbDir, MIGRATIONS_DIR);
        opts.onCreated?.(dbDir, created.ms);
      }
      client = await PGlite.create(dbDir, { startParams: PGLITE_START_PARAMS });
    } catch (err) {
      lock?.release();
      throw err;
    }
  }
  const pglite = client;
  const observers = new StatementObservers();
  return {
    db: drizzlePglite(pglite, { schema, casing: "snake_case", logger: observers }) as unknown as Db,
    kind: "pglite",
    pglite,
    observeStatements: (listener) => observers.observe(listener),
    exec: async (s) => {
      await pglite.exec(s);
    },
    close: async () => {
      if (!pglite.closed) await pglite.close();
      lock?.release();
    },
  };
}

export interface DataDirLock {
  file: string;
  /** Records facts a second process may need (the running server's port, for `npm run reminders`). */
  update(info: Record<string, unknown>): void;
  release(): void;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockInfo,
  ) {
    super(
      `The data directory ${dataDir} is already in use by another Permitrack process (pid ${holder.pid}). ` +
        `PGlite allows one process per directory: stop that process, or set DATA_DIR to another directory, ` +
        `or set DATABASE_URL to use PostgreSQL.`,
    );
  }
}

export interface LockInfo {
  pid: number;
  port?: number;
  controlToken?: string;
  [key: string]: unknown;
}

export function readDataDirLock(dataDir: string): LockInfo | null {
  const file = path.join(path.resolve(dataDir), "permitrack.lock");
  try {
    const info = JSON.parse(fs.readFileSync(file, "utf8")) as LockInfo;
    return isAlive(info.pid) ? info : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite does not lock its data directory, and two processes on one directory corrupt it.
 * An exclusive lock file holding our pid refuses the second process; a stale one (dead pid) is taken over.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, "permitrack.lock");
  let info: LockInfo = { pid: process.pid };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(info), { flag: "wx", mode: 0o600 });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          const current = JSON.parse(fs.readFileSync(file, "utf8")) as LockInfo;
          if (current.pid === process.pid) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
      process.once("exit", release);
      return {
        file,
        update(extra) {
          info = { ...info, ...extra, pid: process.pid };
          fs.writeFileSync(file, JSON.stringify(info), { mode: 0o600 });
        },
        release,
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      let holder: LockInfo | null;
      try {
        holder = JSON.parse(fs.readFileSync(file, "utf8")) as LockInfo;
      } catch {
        holder = null; // unreadable or half-written: treat as stale
      }
      if (holder && holder.pid !== process.pid && isAlive(holder.pid))
        throw new DataDirLockedError(dataDir, holder);
      fs.rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`Could not lock the data directory ${dataDir}`);
}
