import { BOND_STATUS_LABELS, isClosedBondStatus, type BondStatus } from "./bonds.ts";
import { daysBetween } from "./dates.ts";
import { urgency, type Urgency } from "./permit-rules.ts";

// One status per record (issue 25): the single word a permit or a bond shows for what it is now,
// wherever it shows one (the detail's chip, the lists, the project dashboard), and whether it
// still counts towards expiry (tiles, urgency, countdowns, reminders).

/** What the status of a record is read from: its stored status, dates, closing and a bond's ledger status. */
export interface RecordStatusFacts {
  /** The stored permit status (Required, In Waiting, Pending, Expired, N/A). */
  status: string;
  expiration_date: string | null;
  close_date: string | null;
  final_status: string | null;
  /** A bond's status from its ledger; null for a permit (or a bond without an amount yet). */
  bond_status: BondStatus | null;
}

/**
 * Closed: a close date ('Close Permit', the form's Close Date, a bond's Release or Cancellation),
 * or a bond whose ledger was released or cancelled. A closed record has nothing left to expire: it
 * leaves every expiry count (Expiring Soon, Expired, Renewal Due), urgency and countdown, and gets
 * no reminders.
 */
export const isClosedRecord = (r: Pick<RecordStatusFacts, "close_date" | "bond_status">) =>
  !!r.close_date || isClosedBondStatus(r.bond_status);

/** What a bond past its expiration date but still open reads as: "Active · past expiry". */
export const PAST_EXPIRY = "past expiry";

/**
 * The record's one status, in words:
 * - a released or cancelled bond: "Released", "Cancelled";
 * - any other closed record: "Closed · <Final Status>" (or "Closed");
 * - a bond with a ledger: its ledger status, "· past expiry" once the expiration date has passed
 *   while it is still Active or Reduced ("Active · past expiry"); a claim reads "Claimed";
 * - a permit: "Expired" once the expiration date has passed (DESIGN.md 6.10), else its stored status.
 */
export function recordStatus(r: RecordStatusFacts, today: string): string {
  if (r.bond_status && isClosedBondStatus(r.bond_status)) return BOND_STATUS_LABELS[r.bond_status];
  if (r.close_date) return r.final_status ? `Closed · ${r.final_status}` : "Closed";
  const isPast = !!r.expiration_date && daysBetween(today, r.expiration_date) < 0;
  if (r.bond_status) {
    const label = BOND_STATUS_LABELS[r.bond_status];
    return isPast && r.bond_status !== "claimed" ? `${label} · ${PAST_EXPIRY}` : label;
  }
  return isPast ? "Expired" : r.status;
}

/** A status chip's colour: red for what needs action, amber while pending, grey once closed. */
export type StatusTone = "success" | "info" | "warning" | "error" | "default";

/** The tone of a status recordStatus() gave (or a stored permit status). */
export function statusTone(status: string): StatusTone {
  if (status === "Expired" || status === "Claimed" || status.endsWith(` · ${PAST_EXPIRY}`)) return "error";
  if (status === "Pending") return "warning";
  if (status === "Reduced") return "info";
  if (status === "Released" || status === "Cancelled" || status === "N/A" || status.startsWith("Closed"))
    return "default";
  return "success";
}

/** Row highlight of a record: none once it is closed, else by its expiration date. */
export function recordUrgency(
  r: Pick<RecordStatusFacts, "expiration_date" | "close_date" | "bond_status">,
  today: string,
): Urgency {
  return isClosedRecord(r) ? null : urgency(r.expiration_date, today);
}
