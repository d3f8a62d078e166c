import { actorCan, type Actor } from "../actor.ts";
import { withinScope } from "./scope.ts";

/** What the surety rules need of a surety. */
export interface SuretyRecord {
  companyId: string;
}

/**
 * The sureties list (the bond form's choices, the Bonds page's filter): whoever sees bonds. A
 * client-user gets only the sureties of its clients' bonds, and names only (the repository's job).
 */
export const canListSureties = (actor: Actor) => actorCan(actor, "bonds.view");

/** A surety's contact person, phone and e-mail: staff (those who write bonds). */
export const canViewSuretyContacts = (actor: Actor) => actorCan(actor, "bonds.edit");

/** Single and aggregate limits (the company's bonding capacity) and the exposure against them: admins. */
export const canViewSuretyLimits = (actor: Actor) => actorCan(actor, "sureties.viewLimits");

/** Surety Admin: admins only. */
export const canCreateSurety = (actor: Actor) => actorCan(actor, "sureties.manage");

export const canEditSurety = (actor: Actor, surety: SuretyRecord) =>
  actorCan(actor, "sureties.manage") && withinScope(actor, { companyId: surety.companyId });

/** A surety named on bonds is refused by the service (409): a state, not a right. */
export const canDeleteSurety = (actor: Actor, surety: SuretyRecord) =>
  actorCan(actor, "sureties.manage") && withinScope(actor, { companyId: surety.companyId });

/** The `can` flags of a surety. */
export const suretyCan = (actor: Actor, surety: SuretyRecord) => ({
  edit: canEditSurety(actor, surety),
  delete: canDeleteSurety(actor, surety),
});

/** The `can` flags of the sureties list. */
export const suretyListCan = (actor: Actor) => ({
  create: canCreateSurety(actor),
  view_limits: canViewSuretyLimits(actor),
});
