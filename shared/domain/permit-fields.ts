import { PERMIT_SEARCH_MAX } from "./permit-list.ts";

/** Longest values the permit form and API accept; the database columns are unbounded text. */
export const PERMIT_LIMITS = {
  permitNumber: 100,
  permitName: 200,
  agency: 200,
  shortText: 200,
  grantorLink: 2000,
  searchText: PERMIT_SEARCH_MAX,
} as const;

/**
 * How the permit form labels each permit column; audit trails show changed fields by these names.
 * Columns not listed (and non-column fields such as "attachment") fall back to their own name.
 */
export const PERMIT_FIELD_LABELS: Record<string, string> = {
  permit_number: "Permit Number",
  permit_name: "Permit Name",
  record_type: "Record Type",
  agency: "Agency",
  status: "Status",
  archived: "Archived",
  project_id: "Project",
  client_id: "Client",
  company_id: "Company",
  permit_application_date: "Application Date",
  issue_date: "Issue Date",
  expiration_date: "Expiration Date",
  start_date: "Start Date",
  close_date: "Close Date",
  phase: "Phase",
  aka: "AKA",
  grantor_link: "Grantor Link",
  bond_amount: "Bond Amount",
  surety_company: "Surety Company",
  bond_number: "Bond Number",
  guarantee_type: "Guarantee Type",
  responsible_user_id: "Responsible Person",
  expiry_rule: "Expiry Rule",
  expiry_days: "Expiry Days",
  renewal_lead_days: "Renewal Lead Time (days)",
};

/** "permit_application_date" -> "Application Date"; "internal comment" -> "Internal Comment". */
export function permitFieldLabel(field: string): string {
  return PERMIT_FIELD_LABELS[field] ?? field.replace(/_/g, " ").replace(/\b\p{L}/gu, (c) => c.toUpperCase());
}
