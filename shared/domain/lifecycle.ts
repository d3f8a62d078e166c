import { addDays } from "./dates.ts";

// The life of a permit after it is issued (issue 11): terms, inspections, acknowledgement, closing.

/** How a permit's expiration date is set. */
export const EXPIRY_RULES = ["fixed", "after_inspection"] as const;
export type ExpiryRule = (typeof EXPIRY_RULES)[number];
export const EXPIRY_RULE_LABELS: Record<ExpiryRule, string> = {
  fixed: "Fixed date",
  after_inspection: "Days after last passed inspection",
};
/** What many building departments allow after the last passed inspection. */
export const DEFAULT_EXPIRY_DAYS = 180;
export const EXPIRY_DAYS_MAX = 3650;
export const LEAD_DAYS_MAX = 365;

/** How a row of the Terms table came about. */
export const TERM_KINDS = ["original", "renewal", "extension"] as const;
export type TermKind = (typeof TERM_KINDS)[number];
export const TERM_KIND_LABELS: Record<TermKind, string> = {
  original: "Original",
  renewal: "Renewal",
  extension: "Extension",
};

export const INSPECTION_RESULTS = ["Passed", "Failed", "Partial", "Cancelled"] as const;
export type InspectionResult = (typeof INSPECTION_RESULTS)[number];

/** How a closed permit ended. */
export const FINAL_STATUSES = ["Finaled", "Completed", "Withdrawn", "Cancelled", "Expired"] as const;
export type FinalStatus = (typeof FINAL_STATUSES)[number];

/** Days before expiry (or renew-by) when company admins hear of a permit nobody acted on. */
export const DEFAULT_ESCALATION_DAYS = 7;
export const ESCALATION_DAYS_MAX = 90;

/** Renew-by date = expiration date minus the lead time; null without either. */
export function renewByDate(expirationDate: string | null, leadDays: number | null): string | null {
  if (!expirationDate || leadDays === null || leadDays === undefined) return null;
  return addDays(expirationDate, -leadDays);
}

/** The date reminders count down to: the renew-by date when a lead time is set, else the expiry. */
export const countdownDate = (expirationDate: string | null, leadDays: number | null) =>
  renewByDate(expirationDate, leadDays) ?? expirationDate;
