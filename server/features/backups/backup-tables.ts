/**
 * What a backup records of the database, read in the dump's own snapshot: every table's row count,
 * and the storage keys of every file a row refers to (the files are listed from the rows, not from
 * the store, so that either storage driver works and a file nobody refers to is not kept).
 */

/** The schemas a backup holds: the app's tables and drizzle's record of the migrations applied. */
export const APP_SCHEMAS = ["public", "drizzle"];

/** The columns that hold storage keys. A new kind of file adds its column here. */
export const FILE_KEY_COLUMNS = [
  { table: "attachments", column: "storage_key" },
  { table: "companies", column: "logo_key" },
  // An outside party's upload (issue 27); once approved its attachment row shares the key.
  { table: "request_files", column: "storage_key" },
  // A condition task's evidence (issue 29).
  { table: "condition_tasks", column: "evidence_key" },
] as const;

export interface DumpedState {
  /** "schema.table" → rows. */
  tables: Record<string, number>;
  /** Distinct storage keys, sorted. */
  fileKeys: string[];
}

/** Runs one statement in the snapshot, returns its rows (a PGlite transaction or a pg client). */
export type SnapshotQuery = <T>(text: string, params?: unknown[]) => Promise<T[]>;

/** The tables of the app's schemas, as "schema"."table" for SQL and schema.table for the manifest. */
export async function appTables(query: SnapshotQuery): Promise<{ name: string; sql: string }[]> {
  return query<{ name: string; sql: string }>(
    `select n.nspname || '.' || c.relname as name, format('%I.%I', n.nspname, c.relname) as sql
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind = 'r' and n.nspname = any($1)
     order by 1`,
    [APP_SCHEMAS],
  );
}

/** Every table's row count (one statement) and the keys of the files rows refer to. */
export async function readDumpedState(query: SnapshotQuery): Promise<DumpedState> {
  return { tables: await countRows(query), fileKeys: await fileKeys(query) };
}

export async function countRows(query: SnapshotQuery): Promise<Record<string, number>> {
  const tables = await appTables(query);
  if (!tables.length) return {};
  const [counts] = await query<Record<string, number>>(
    `select ${tables.map((t, i) => `(select count(*) from ${t.sql})::int as t${i}`).join(", ")}`,
  );
  return Object.fromEntries(tables.map((t, i) => [t.name, Number(counts![`t${i}`])]));
}

async function fileKeys(query: SnapshotQuery): Promise<string[]> {
  const rows = await query<{ key: string }>(
    FILE_KEY_COLUMNS.map(
      ({ table, column }) => `select ${column} as key from public.${table} where ${column} is not null`,
    ).join(" union ") + " order by 1",
  );
  return rows.map((r) => r.key);
}
