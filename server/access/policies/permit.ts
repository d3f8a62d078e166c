import { ROLES, isCompanyStaffRole, type Role } from "../../../shared/domain/roles.ts";
import type { PermitCan } from "../../../shared/schemas/permit-detail.ts";
import { actorCan, choosesCompany, type Actor } from "../actor.ts";
import { canCommentOnPermit, canReadInternalComments } from "./comment.ts";
import { canUploadAttachment } from "./attachment.ts";
import { withinScope } from "./scope.ts";

/** What the permit rules need of a permit row (or a list row). */
export interface PermitRecord {
  companyId: string;
  clientId: string | null;
}

/**
 * What the actor may do with a permit it can see (spec section 6). Visibility (company, client
 * filter) is the scoped query's job: another company's permit answers 404 before any of these.
 */
export const canViewPermit = (actor: Actor, permit: PermitRecord) =>
  actorCan(actor, "permits.view") && withinScope(actor, permit);

/** Lists, summaries and exports of the permits the actor can see. */
export const canListPermits = (actor: Actor) => actorCan(actor, "permits.view");

export const canCreatePermit = (actor: Actor) => actorCan(actor, "permits.create");

/**
 * The getting-started steps of an empty platform or company (issue 25) are for whoever may add
 * permits (staff); a client-user is told only that there is nothing yet.
 */
export const canSeeGettingStarted = (actor: Actor) => canCreatePermit(actor);

/** The permit form's lookups (projects, companies, agencies) are for whoever may edit permits. */
export const canUsePermitForm = (actor: Actor) => actorCan(actor, "permits.edit");

export const canEditPermit = (actor: Actor, permit: PermitRecord) =>
  actorCan(actor, "permits.edit") && withinScope(actor, permit);

export const canDeletePermit = (actor: Actor, permit: PermitRecord) =>
  actorCan(actor, "permits.delete") && withinScope(actor, permit);

/** Only an actor working across companies moves a permit to another company from the form. */
export const canMovePermitToCompany = (actor: Actor, permit: PermitRecord) =>
  canEditPermit(actor, permit) && choosesCompany(actor);

/**
 * Who may be a permit's responsible person (issue 11): an active staff user of the permit's
 * company, never a client-user or a super-admin (who belongs to no company).
 */
export const RESPONSIBLE_PERSON_ROLES: Role[] = ROLES.filter(isCompanyStaffRole);

/** Whether the actor can be a responsible person (the list's Responsible filter offers 'Me'). */
export const canBeResponsible = (actor: Actor) => RESPONSIBLE_PERSON_ROLES.includes(actor.role);

/** The `can` flags of a permit's detail: exactly the checks its routes make. */
export function permitCan(actor: Actor, permit: PermitRecord): PermitCan {
  return {
    edit: canEditPermit(actor, permit),
    delete: canDeletePermit(actor, permit),
    comment: canCommentOnPermit(actor, permit),
    upload: canUploadAttachment(actor, permit),
    viewInternalComments: canReadInternalComments(actor),
  };
}

/** The `can` flags of a row of the All Permits list. */
export function permitRowCan(actor: Actor, permit: PermitRecord): { edit: boolean; delete: boolean } {
  return { edit: canEditPermit(actor, permit), delete: canDeletePermit(actor, permit) };
}
