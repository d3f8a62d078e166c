import { sql, type SQL } from "drizzle-orm";

/**
 * Keyset pagination (issue 26): the rows after the last one read, in an order of
 * `key asc|desc nulls last, ...tie` where the tie-breakers ascend and are unique together. Each
 * page is read from where the last one ended, through the index, instead of counting OFFSET rows
 * from the start again: a 100,000-row export reads each row once. `last` holds the last row's
 * values as the driver read them (text), cast by the caller where the database must know the
 * type (e.g. `sql\`${value}::timestamptz\``).
 */
export function keysetAfter(o: {
  /** The chosen sort column or expression; none: the tie-breakers alone. */
  key?: SQL;
  dir: "asc" | "desc";
  tie: SQL[];
  last: { key: string | null; tie: SQL[] };
}): SQL {
  const tieAfter = sql`(${sql.join(o.tie, sql`, `)}) > (${sql.join(o.last.tie, sql`, `)})`;
  if (!o.key) return tieAfter;
  // Nulls come last in either direction: after a null only nulls (by the tie-breakers) follow.
  if (o.last.key === null) return sql`(${o.key} is null and ${tieAfter})`;
  const beyond = o.dir === "asc" ? sql`${o.key} > ${o.last.key}` : sql`${o.key} < ${o.last.key}`;
  return sql`(${beyond} or (${o.key} = ${o.last.key} and ${tieAfter}) or ${o.key} is null)`;
}
