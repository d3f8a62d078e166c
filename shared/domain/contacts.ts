/**
 * Contacts (issue 27): a company's outside people (an agency's permit desk, a surety's agent, a
 * subcontractor, the owner's representative). Kinds, their words, the length limits and the
 * messages both sides use, without zod.
 */
export const CONTACT_KINDS = ["agency", "surety_agent", "subcontractor", "owner", "other"] as const;
export type ContactKind = (typeof CONTACT_KINDS)[number];

export const CONTACT_KIND_LABELS: Record<ContactKind, string> = {
  agency: "Agency",
  surety_agent: "Surety / Agent",
  subcontractor: "Subcontractor",
  owner: "Owner",
  other: "Other",
};

/** Longest values the contact form and the API accept. */
export const CONTACT_LIMITS = {
  name: 200,
  email: 254,
  organization: 200,
  phone: 50,
  notes: 2000,
  search: 200,
  /** Contacts a permit may list. */
  perPermit: 20,
} as const;

export const CONTACT_EMAIL_TAKEN = "A contact with this e-mail already exists";
export const CONTACT_NOT_IN_COMPANY = "Contact not found in this company.";
export const CONTACT_EMAIL_MESSAGE = "Enter a valid email address";

/** "Name — Organization" (the picker, the permit page), or the name alone. */
export const contactLabel = (c: { name: string; organization: string | null }) =>
  c.organization ? `${c.name} — ${c.organization}` : c.name;

/** How the export writes a permit's contacts (their e-mails) and the import splits them again. */
export const CONTACTS_SEPARATOR = "; ";
export const splitContactEmails = (cell: string) =>
  cell
    .split(/[;,\n]/)
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
