import { inCompanyScope, scopeOf, type Actor } from "../actor.ts";

/** The tenant columns a policy needs of a record: its company and, where it has one, its client. */
export interface TenantRecord {
  companyId: string | null;
  clientId?: string | null;
}

/**
 * True when the record lies within the actor's scope (its company; for a client-user, its client
 * filter). Scoped queries already answer 404 outside it; policies check again so that a record
 * loaded the wrong way fails closed instead of granting anything.
 */
export function withinScope(actor: Actor, record: TenantRecord): boolean {
  const scope = scopeOf(actor);
  if (!inCompanyScope(scope, record.companyId)) return false;
  if (!scope.clientIds || record.clientId === undefined) return true;
  return !!record.clientId && scope.clientIds.includes(record.clientId);
}
