import { actorCan, type Actor } from "../actor.ts";
import { withinScope } from "./scope.ts";

/** What the contact rules need of a contact. */
export interface ContactRecord {
  companyId: string;
}

/**
 * A company's contacts (issue 27): staff read them (the admin page, the permit form's picker), and
 * may add one (the 'Request Document' dialog names a new party); client-users get none of them.
 */
export const canListContacts = (actor: Actor) => actorCan(actor, "contacts.view");

/** A contact's e-mail and phone where a permit lists it: staff only, never a client-user. */
export const canViewContactDetails = (actor: Actor) => actorCan(actor, "contacts.view");

export const canCreateContact = (actor: Actor) => actorCan(actor, "contacts.create");

/** The admin page's Edit and Delete: company-admins (their company's), super-admins (any). */
export const canManageContacts = (actor: Actor) => actorCan(actor, "contacts.manage");

export const canEditContact = (actor: Actor, contact: ContactRecord) =>
  canManageContacts(actor) && withinScope(actor, { companyId: contact.companyId });

/** Deleting a contact takes it off the permits that list it (a state, not a refusal). */
export const canDeleteContact = (actor: Actor, contact: ContactRecord) =>
  canManageContacts(actor) && withinScope(actor, { companyId: contact.companyId });

/** The `can` flags of a contact. */
export const contactCan = (actor: Actor, contact: ContactRecord) => ({
  edit: canEditContact(actor, contact),
  delete: canDeleteContact(actor, contact),
});

/** The `can` flags of the contacts list. */
export const contactListCan = (actor: Actor) => ({
  create: canCreateContact(actor),
  manage: canManageContacts(actor),
});
