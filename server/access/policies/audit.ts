import { actorCan, type Actor } from "../actor.ts";
import { withinScope, type TenantRecord } from "./scope.ts";

/**
 * A permit's audit trail is read by whoever sees the permit; the entries of internal comments
 * follow the comment rules (canReadInternalComments), those of a bond's collateral the bond rules
 * (canViewCollateral): a client-user gets neither.
 */
export const canViewPermitAudit = (actor: Actor, permit: TenantRecord) =>
  actorCan(actor, "permits.view") && withinScope(actor, permit);
