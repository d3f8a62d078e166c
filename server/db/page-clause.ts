import { sql, type SQL } from "drizzle-orm";

/**
 * A page of a list as SQL: `limit N` with the page size written into the text, and `offset $n` as a
 * parameter only past the first row.
 *
 * Every read is a named prepared statement on PostgreSQL (statements.ts), which PostgreSQL may run
 * with one generic plan after five runs instead of planning it again each time. With the limit as a
 * parameter it never does: a generic plan guesses a tenth of the rows for an unknown limit, looks
 * dearer than a custom plan, and the list's five-table join was planned at every request (about
 * 1.2 ms, more than running it: decision 0019). With the page size in the text and no offset, the
 * first page of each list shape gets its generic plan; later pages keep a custom plan, as before.
 * Page sizes are few (the schemas bound them), so they add few texts.
 */
export function pageClause(limit: number, offset: number): SQL {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`page size must be a whole number, not ${limit}`);
  if (!Number.isSafeInteger(offset) || offset < 0) throw new Error(`offset must be a whole number, not ${offset}`);
  const head = sql.raw(`limit ${limit}`);
  return offset ? sql`${head} offset ${offset}` : head;
}
