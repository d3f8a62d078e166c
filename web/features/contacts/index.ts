// The contacts feature's public face (issue 27): the permit form's 'Contacts' field, the permit
// page's 'Contacts' card and the one contacts lookup of the pickers.
export { contactsQueryKey, useContactPicker } from "./api/list-contacts.ts";
export { ContactsField } from "./components/contacts-field.tsx";
export { PermitContactsCard } from "./components/permit-contacts-card.tsx";
