/**
 * The contacts feature's public face (issue 27): its routes; what the permit form, the permit
 * detail, imports and exports use of the contacts a permit lists; and what the document-request
 * feature needs: the picker's list and a contact found by e-mail or made.
 */
export { contactsRoutes } from "./contacts.routes.ts";
export {
  findVisibleContact,
  listContactsForPicker,
  permitContactEmailsColumn,
  permitContactsColumn,
  type ContactRow,
} from "./contacts.repository.ts";
export { ensureContact } from "./contacts.service.ts";
export {
  contactsByEmail,
  linkPermitContacts,
  presentPermitContacts,
  syncPermitContacts,
} from "./permit-contacts.ts";
