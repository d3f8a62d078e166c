import type { Writable } from "node:stream";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import { pgDump } from "@electric-sql/pglite-tools/pg_dump";
import { APP_SCHEMAS, type DumpedState } from "./backup-tables.ts";

/**
 * The embedded database's dump: a plain SQL file that psql loads into PostgreSQL and loadSqlDump()
 * (sql-load.ts) into PGlite. Its schema comes from pg_dump itself (pglite-tools' WebAssembly build,
 * offline), split as pg_dump splits it: pre-data (types, functions, tables, sequences), then the data,
 * then post-data (indexes, constraints, foreign keys, triggers), so the rows load before any
 * constraint or trigger exists. The data is ours: pg_dump's WebAssembly build writes only INSERTs,
 * all of it in memory at once; here each table is read in pages of heap blocks with COPY, in one
 * read-only transaction, so memory stays at a page whatever the database's size.
 */

/** Heap blocks per page: 2 MB of table at a time. */
const BLOCKS_PER_PAGE = 256;

/**
 * pg_dump's schema sections, run while nothing else uses the single connection (pg_dump speaks
 * the wire protocol on it directly, synchronously): PGlite's transaction lock is taken, and the
 * session's settings pg_dump changed are reset after.
 */
async function schemaSections(pg: PGlite): Promise<{ pre: string; post: string }> {
  let sections: { pre: string; post: string } | undefined;
  await pg.transaction(async (tx) => {
    // transaction() opened one; we only want its lock, not a transaction around pg_dump's own.
    await tx.exec("COMMIT");
    try {
      // pgDump's own queries (search_path before and after) go through the lock we hold.
      const held = {
        query: tx.query.bind(tx),
        exec: tx.exec.bind(tx),
        execProtocolRawStream: pg.execProtocolRawStream.bind(pg),
      } as unknown as PGlite;
      const section = async (name: "pre-data" | "post-data") => {
        const file = await pgDump({
          pg: held,
          args: ["--schema-only", `--section=${name}`, "--no-owner", "--no-privileges"],
        });
        return forEveryServer(await file.text());
      };
      sections = { pre: await section("pre-data"), post: await section("post-data") };
    } finally {
      await tx.exec("RESET ALL");
      await tx.exec("BEGIN"); // for the COMMIT transaction() sends when we return
    }
  });
  return sections!;
}

/**
 * pg_dump 18 (pglite-tools', for PGlite 0.5's PostgreSQL 18) sets transaction_timeout, which
 * PostgreSQL 15 and 16 do not know; nothing else in its output for this schema is newer than
 * PostgreSQL 15 (a restore into 15 is tested).
 */
function forEveryServer(text: string): string {
  return text.replace(/^SET transaction_timeout = 0;\n/m, "");
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Writes the dump to `out` (the caller gzips and closes it) and returns the row counts and file keys
 * of the same snapshot. The data is read in one REPEATABLE READ, READ ONLY transaction, which on
 * PGlite also holds every other query back until it ends (seconds for the bench's 100,000 permits).
 */
export async function dumpPglite(
  pg: PGlite,
  out: Writable,
  readState: (tx: Transaction) => Promise<DumpedState>,
): Promise<DumpedState> {
  const write = (text: string) =>
    new Promise<void>((resolve, reject) => out.write(text, (err) => (err ? reject(err) : resolve())));
  const { pre, post } = await schemaSections(pg);
  await write(pre);
  const state = await pg.transaction(async (tx) => {
    await tx.exec(
      "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY; SET LOCAL datestyle = ISO; SET LOCAL extra_float_digits = 3",
    );
    await write("\n--\n-- Data (Permitrack backup: every table with COPY, as pg_dump writes it)\n--\n\n");
    const { rows: tables } = await tx.query<{
      schema: string;
      name: string;
      columns: string[];
      blocks: number;
    }>(
      `select n.nspname as schema, c.relname as name,
              array(select a.attname::text from pg_attribute a
                    where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
                    order by a.attnum) as columns,
              (pg_relation_size(c.oid) / current_setting('block_size')::int)::int as blocks
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind = 'r' and n.nspname = any($1)
       order by n.nspname, c.relname`,
      [APP_SCHEMAS],
    );
    for (const t of tables) {
      const table = `${ident(t.schema)}.${ident(t.name)}`;
      const columns = t.columns.map(ident).join(", ");
      await write(`COPY ${table} (${columns}) FROM stdin;\n`);
      for (let from = 0; from < t.blocks; from += BLOCKS_PER_PAGE) {
        const page = await tx.query(
          `COPY (SELECT ${columns} FROM ${table}
                 WHERE ctid >= '(${from},0)'::tid AND ctid < '(${from + BLOCKS_PER_PAGE},0)'::tid) TO '/dev/blob'`,
        );
        if (page.blob?.size) await write(await page.blob.text());
      }
      await write("\\.\n\n");
    }
    const { rows: sequences } = await tx.query<{ name: string }>(
      `select format('%I.%I', schemaname, sequencename) as name from pg_sequences
       where schemaname = any($1) order by 1`,
      [APP_SCHEMAS],
    );
    for (const s of sequences) {
      const {
        rows: [v],
      } = await tx.query<{ last_value: string; is_called: boolean }>(
        `select last_value::text, is_called from ${s.name}`,
      );
      await write(
        `SELECT pg_catalog.setval('${s.name.replaceAll("'", "''")}', ${v!.last_value}, ${v!.is_called});\n`,
      );
    }
    return readState(tx);
  });
  await write(`\n${post}`);
  return state;
}
