import { and, eq, sql, type SQL } from "drizzle-orm";
import { scopeOf, type Actor } from "../../access/actor.ts";
import type { Db } from "../../db/client.ts";
import { permits } from "../../db/schema.ts";
import { notFound } from "../../errors.ts";
import { findVisiblePermit, permitScope, type PermitRow } from "../permits/index.ts";
import type { DatedEntry } from "./ledger-entries.ts";

/**
 * A bond the actor may see, or 404: the permit lookup (company, a client-user's clients) and a
 * permit that is not a bond answers like a missing bond.
 */
export async function findVisibleBond(
  db: Db,
  actor: Actor,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<PermitRow> {
  const permit = await findVisiblePermit(db, actor, id, opts);
  if (permit.recordType !== "bond") throw notFound("Bond");
  return permit;
}

/** A json column as drizzle hands it over in a select: parsed by one driver, text from the other. */
const fromJson = (value: unknown): DatedEntry[] =>
  (typeof value === "string" ? JSON.parse(value) : value) as DatedEntry[];

/**
 * A ledger write's one read: the bond the actor may see (404 otherwise, or for a permit), locked
 * for the write's transaction, with its ledger entries in order (what the ledger's arithmetic
 * needs), in one statement.
 */
export async function lockBondWithLedger(
  tx: Db,
  actor: Actor,
  id: string,
): Promise<{ bond: PermitRow; entries: DatedEntry[] }> {
  const [row] = await tx
    .select({
      bond: permits,
      // "permits"."id" by hand: drizzle writes a one-table select's columns unqualified, which the
      // subquery would read as its own entries' id.
      entries: sql<DatedEntry[]>`coalesce((
        select json_agg(json_build_object('id', e.id, 'kind', e.kind, 'change', e.change::text,
                 'reverses_id', e.reverses_id, 'effectiveDate', e.effective_date) order by e.seq)
        from bond_ledger_entries e where e.permit_id = "permits"."id"), '[]'::json)`.mapWith(fromJson),
    })
    .from(permits)
    .where(and(eq(permits.id, id), permitScope(actor)))
    .for("update", { of: permits });
  if (!row || row.bond.recordType !== "bond") throw notFound("Bond");
  return row;
}

/** A text[] parameter as uuid[] (one parameter, whatever the count). */
export const uuidArray = (ids: readonly string[]) => sql`${`{${ids.join(",")}}`}::uuid[]`;

/**
 * The actor's scope over a permits alias in raw SQL (`p` by default): its company unless it works
 * across companies, and a client-user's clients.
 */
export function scopeSql(actor: Actor, alias = "p"): SQL {
  const scope = scopeOf(actor);
  const a = sql.raw(alias);
  const conds: SQL[] = [];
  if (scope.companyId) conds.push(sql`${a}.company_id = ${scope.companyId}`);
  if (scope.clientIds) {
    conds.push(
      scope.clientIds.length ? sql`${a}.client_id = any(${uuidArray(scope.clientIds)})` : sql`false`,
    );
  }
  return conds.length ? sql.join(conds, sql` and `) : sql`true`;
}
