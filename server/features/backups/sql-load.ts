import readline from "node:readline";
import type { Readable } from "node:stream";
import type { PGlite } from "@electric-sql/pglite";

/** COPY data sent to PGlite per statement (PGlite reads COPY from a blob, not from the protocol). */
const CHUNK_BYTES = 4 * 1024 * 1024;
const COPY_FROM_STDIN = /^COPY ([\w."]+) \((.*)\) FROM stdin;$/;
/** psql's guard around a dump's script (pg_dump and pg_restore 15.14+, 17.6+): psql's business only. */
const RESTRICT = /^\\(un)?restrict\b/;

/**
 * Loads a plain SQL dump (ours, or pg_restore's SQL of a custom-format dump) into PGlite, in one
 * transaction: what psql does with it, for the statements and COPY ... FROM stdin blocks such a dump
 * holds (no psql meta-commands but \restrict and \unrestrict, which are skipped). Streamed line by line: memory stays at a chunk of COPY data.
 */
export async function loadSqlDump(pg: PGlite, source: Readable): Promise<void> {
  await pg.transaction(async (tx) => {
    let statements: string[] = [];
    let copy: { table: string; columns: string } | null = null;
    let rows: string[] = [];
    let rowBytes = 0;
    const flushStatements = async () => {
      const text = statements.join("\n");
      statements = [];
      if (text.replace(/^--.*$/gm, "").trim()) await tx.exec(text);
    };
    const flushRows = async () => {
      if (!copy || !rows.length) return;
      const blob = new Blob([rows.join("\n") + "\n"]);
      rows = [];
      rowBytes = 0;
      await tx.query(`COPY ${copy.table} (${copy.columns}) FROM '/dev/blob'`, [], { blob });
    };
    for await (const line of readline.createInterface({ input: source, crlfDelay: Infinity })) {
      if (copy) {
        if (line === "\\.") {
          await flushRows();
          copy = null;
        } else {
          rows.push(line);
          rowBytes += line.length + 1;
          if (rowBytes >= CHUNK_BYTES) await flushRows();
        }
        continue;
      }
      const start = COPY_FROM_STDIN.exec(line);
      if (start) {
        await flushStatements();
        copy = { table: start[1]!, columns: start[2]! };
      } else if (!RESTRICT.test(line)) {
        statements.push(line);
      }
    }
    if (copy)
      throw new Error(`the dump ends inside the data of ${copy.table} (no \\. line): it is cut short`);
    await flushStatements();
  });
}
