import { and, eq, sql } from "drizzle-orm";
import {
  scopeOf,
  scopeParams,
  scopePlaceholderConditions,
  scopeShape,
  type Actor,
} from "../../access/actor.ts";
import { canReadInternalComments } from "../../access/policies/comment.ts";
import { builtOnce } from "../../db/built-once.ts";
import type { Db } from "../../db/client.ts";
import { permits } from "../../db/schema.ts";
import { notFound } from "../../errors.ts";
import { permitScope } from "./permit-view.query.ts";

export type PermitRow = typeof permits.$inferSelect;

/**
 * Loads a permit the actor may see, or throws 404: another company's permit, and for a
 * client-user a permit of a client outside its list, are indistinguishable from a missing one.
 * Comments, attachments, audit and reminders all reach a permit through this.
 */
export async function findVisiblePermit(
  db: Db,
  actor: Actor,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<PermitRow> {
  const query = db
    .select()
    .from(permits)
    .where(and(eq(permits.id, id), permitScope(actor)));
  // Inside a transaction that changes the permit: the row lock keeps the audit's old values true.
  const [row] = opts.forUpdate ? await query.for("update") : await query;
  if (!row) throw notFound("Permit");
  return row;
}

/**
 * A permit's sub-resource (its comments, its audit trail) read in one statement: select
 * `visiblePermitKey` beside the sub-resource's columns, from `permits` left-joined to the
 * sub-resource's table and filtered by `visiblePermitCondition`, built once (`builtOnceForViewer`)
 * and run with `visiblePermitParams`; then `visiblePermitOf(rows)` gives the permit the policy
 * judges, or throws 404 when the actor may not see it (no rows at all).
 */
export const visiblePermitKey = {
  permitId: permits.id,
  permitCompanyId: permits.companyId,
  permitClientId: permits.clientId,
};

/**
 * The condition on `permits` that finds the permit if the actor may see it, with placeholders for
 * the permit's id and the actor's scope: the statement is built once (`builtOnceForViewer`) and
 * run with `visiblePermitParams`.
 */
export const visiblePermitCondition = (actor: Actor) =>
  and(
    eq(permits.id, sql.placeholder("permitId")),
    scopePlaceholderConditions(scopeOf(actor), { companyId: permits.companyId, clientId: permits.clientId }),
  );

/**
 * builtOnce() for a statement about a permit the actor may see (its detail, comments, audit
 * trail): such a statement depends on the actor only through the shape of its scope and whether
 * internal comments count, so it is built once per `what` and those two. `build` gets the
 * statement's name and whether internal comments count.
 */
export function builtOnceForViewer<T extends object>(
  db: Db,
  actor: Actor,
  what: string,
  build: (name: string, readsInternalComments: boolean) => T,
): T {
  const internal = canReadInternalComments(actor);
  const key = `${what}_${scopeShape(scopeOf(actor))}${internal ? "+internal" : ""}`;
  return builtOnce(db, key, (name) => build(name, internal));
}

/** The placeholder values of visiblePermitCondition() for the actor and a permit id. */
export const visiblePermitParams = (actor: Actor, permitId: string) => ({
  permitId,
  ...scopeParams(scopeOf(actor)),
});

export function visiblePermitOf(
  rows: readonly { permitId: string; permitCompanyId: string; permitClientId: string | null }[],
): { id: string; companyId: string; clientId: string | null } {
  const first = rows[0];
  if (!first) throw notFound("Permit");
  return { id: first.permitId, companyId: first.permitCompanyId, clientId: first.permitClientId };
}
