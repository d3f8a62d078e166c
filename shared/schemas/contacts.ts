import { z } from "zod";
import {
  CONTACT_EMAIL_MESSAGE,
  CONTACT_KIND_LABELS,
  CONTACT_KINDS,
  CONTACT_LIMITS,
} from "../domain/contacts.ts";
import {
  filterText,
  optionalChoice,
  optionalId,
  optionalText,
  pageFields,
  requiredText,
  uuid,
} from "./fields.ts";

// Contacts (issue 27): a company's outside people, the admin page, the permit form's picker and
// the contacts a permit lists. A client-user never receives a contact's e-mail or phone.

const KIND_MESSAGE = `Kind must be one of ${CONTACT_KINDS.map((k) => CONTACT_KIND_LABELS[k]).join(", ")}`;
const isEmail = (v: string) => z.email().safeParse(v).success;

/** POST /api/contacts and PUT /api/contacts/:id (the contact dialog). */
export const ContactInputSchema = z.object({
  /** Super-admin only: required on create; ignored on update (a contact stays in its company). */
  company_id: optionalId(),
  name: requiredText("Name", CONTACT_LIMITS.name),
  /** Optional (a phone-only contact), but once per company in any case. Stored lower-case. */
  email: optionalText("E-mail", CONTACT_LIMITS.email).refine((v) => v === null || isEmail(v), {
    message: CONTACT_EMAIL_MESSAGE,
  }),
  organization: optionalText("Organization", CONTACT_LIMITS.organization),
  kind: z.enum(CONTACT_KINDS, { message: KIND_MESSAGE }).default("other"),
  phone: optionalText("Phone", CONTACT_LIMITS.phone),
  notes: optionalText("Notes", CONTACT_LIMITS.notes),
});
export type ContactInput = z.output<typeof ContactInputSchema>;
export type ContactFormValues = z.input<typeof ContactInputSchema>;

/** GET /api/contacts: the admin page's search, kind filter and page. */
export const ContactListQuerySchema = z.object({
  /** A super-admin may name one company (else every company's); everyone else sees their own. */
  company_id: optionalId(),
  q: filterText(CONTACT_LIMITS.search),
  kind: optionalChoice(CONTACT_KINDS, KIND_MESSAGE),
  ...pageFields(),
});
export type ContactListQuery = z.output<typeof ContactListQuerySchema>;

export const ContactCanSchema = z.object({ edit: z.boolean(), delete: z.boolean() });

/** A contact as the admin page lists it (staff only). */
export const ContactSchema = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  company_name: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  organization: z.string().nullable(),
  kind: z.enum(CONTACT_KINDS),
  phone: z.string().nullable(),
  notes: z.string().nullable(),
  /** Permits and bonds listing the contact: deleting it takes it off them. */
  permit_count: z.number().int().nonnegative(),
  can: ContactCanSchema,
});
export type Contact = z.infer<typeof ContactSchema>;

export const ContactListSchema = z.object({
  contacts: z.array(ContactSchema),
  total: z.number().int().nonnegative(),
  page: z.number().int(),
  page_size: z.number().int(),
  /** `create`: 'Add Contact'; `manage`: the admin page's Edit and Delete. */
  can: z.object({ create: z.boolean(), manage: z.boolean() }),
});
export type ContactList = z.infer<typeof ContactListSchema>;

export const ContactResponseSchema = z.object({ contact: ContactSchema });

/** GET /api/contacts/picker: every contact of one company, by name, for the forms' pickers. */
export const ContactPickerQuerySchema = z.object({ company_id: optionalId() });

export const ContactChoiceSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string().nullable(),
  organization: z.string().nullable(),
  kind: z.enum(CONTACT_KINDS),
});
export type ContactChoice = z.infer<typeof ContactChoiceSchema>;

export const ContactPickerSchema = z.object({ contacts: z.array(ContactChoiceSchema) });
export type ContactPicker = z.infer<typeof ContactPickerSchema>;

/**
 * A contact a permit or bond lists, as its page shows it: e-mail and phone for staff only (null
 * for a client-user).
 */
export const PermitContactSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  organization: z.string().nullable(),
  kind: z.enum(CONTACT_KINDS),
  email: z.string().nullable(),
  phone: z.string().nullable(),
});
export type PermitContact = z.infer<typeof PermitContactSchema>;

/** The permit form's 'Contacts': the ids of the company's contacts it lists; null or missing: unchanged. */
export const contactIdsField = () =>
  z
    .array(uuid(), { message: "Contacts must be a list of contacts" })
    .max(CONTACT_LIMITS.perPermit, { message: `At most ${CONTACT_LIMITS.perPermit} contacts` })
    .nullish();
