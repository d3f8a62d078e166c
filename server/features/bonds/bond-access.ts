import { sql, type SQL } from "drizzle-orm";
import { scopeOf, type Actor } from "../../access/actor.ts";
import type { Db } from "../../db/client.ts";
import { notFound } from "../../errors.ts";
import { findVisiblePermit, type PermitRow } from "../permits/index.ts";

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
