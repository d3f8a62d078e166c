import { actorCan, type Actor } from "../actor.ts";
import { withinScope, type TenantRecord } from "./scope.ts";

/**
 * A permit's audit trail is read by whoever sees the permit; the entries of internal comments
 * follow the comment rules (canReadInternalComments).
 */
export const canViewPermitAudit = (actor: Actor, permit: TenantRecord) =>
  actorCan(actor, "permits.view") && withinScope(actor, permit);
