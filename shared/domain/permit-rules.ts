import { EXPIRING_SOON_DAYS } from "./constants.ts";
import { daysBetween } from "./dates.ts";

export interface PermitDates {
  start_date?: string | null;
  permit_application_date?: string | null;
  issue_date?: string | null;
  expiration_date?: string | null;
}

/**
 * The All Permits dashboard's categories (spec section 4), and the project dashboard's too (issue
 * 25: the spec's own 'In Waiting' set for projects read like the In Waiting status).
 */
export type ListCategory = "In Progress" | "In Review" | "Active";
export function listCategory(p: PermitDates): ListCategory | null {
  if (p.expiration_date) return "Active";
  if (p.permit_application_date && !p.issue_date) return "In Review";
  if (p.start_date && !p.permit_application_date) return "In Progress";
  return null;
}
export const LIST_CATEGORY_COLORS: Record<ListCategory, string> = {
  "In Progress": "#2e7d32",
  "In Review": "#d32f2f",
  Active: "#ffb300",
};


export type Urgency = "expired" | "expiring" | null;
/** Row highlight: expired (date in the past) or expiring within 30 days of `today`. */
export function urgency(expirationDate: string | null | undefined, today: string): Urgency {
  if (!expirationDate) return null;
  const left = daysBetween(today, expirationDate);
  if (left < 0) return "expired";
  if (left <= EXPIRING_SOON_DAYS) return "expiring";
  return null;
}

/** The detail chip shows Expired whenever the date has passed, whatever is stored (DESIGN.md 6.10). */
export function displayPermitStatus(
  status: string,
  expirationDate: string | null | undefined,
  today: string,
): string {
  if (expirationDate && daysBetween(today, expirationDate) < 0) return "Expired";
  return status;
}

export function statusChipColor(displayStatus: string): "error" | "warning" | "success" {
  if (displayStatus === "Expired") return "error";
  if (displayStatus === "Pending") return "warning";
  return "success";
}
