import { BOND_STATUS_LABELS } from "./bonds.ts";
import { REQUEST_AUDIT_ACTIONS, REQUEST_AUDIT_FIELDS } from "./document-requests.ts";
import { formatAmount, formatAmountChange, formatDate, formatPercentOf, DISPLAY_LOCALE } from "./format.ts";
import { EXPIRY_RULE_LABELS } from "./lifecycle.ts";
import { permitFieldLabel } from "./permit-fields.ts";
import { RECORD_TYPE_LABELS } from "./statuses.ts";

// The audit trail in words (issue 25): an entry as it is stored (the action and field codes, the
// values as the writers wrote them: ISO dates, plain decimals, codes, ids) becomes what a person
// reads, with the labels the forms and cards use, dates and amounts as the screens show them
// (format.ts) and names for the records a value points at. The web app's Audit Trail card and the
// form's list both read entries through auditText(); what a role may read is decided before, on
// the server (the entries a client-user does not get never reach this).

/**
 * Fields whose values are ids of other records: the server reads their names in the statement
 * that reads the trail (server/features/audit/audit-names.ts, decision 0023).
 */
export const AUDIT_REFERENCE_FIELDS = {
  responsible_user_id: "user",
  project_id: "project",
  client_id: "client",
  company_id: "company",
} as const;
export type AuditReference = (typeof AUDIT_REFERENCE_FIELDS)[keyof typeof AUDIT_REFERENCE_FIELDS];

/** What an id reads as when its record is gone, or is not the reader's to see. */
export const UNNAMED_REFERENCE: Record<AuditReference, string> = {
  user: "Former user",
  project: "Another project",
  client: "Another client",
  company: "Another company",
};

type ValueKind =
  | "date"
  | "money"
  | "boolean"
  | "ledger"
  | "collateral"
  | "inspection"
  | "reason"
  | "task"
  | { labels: Readonly<Record<string, string>> };

/** How each audited field's values read (a field not listed is text, shown as written). */
const FIELD_KINDS: Record<string, ValueKind> = {
  permit_application_date: "date",
  issue_date: "date",
  expiration_date: "date",
  start_date: "date",
  close_date: "date",
  collateral_released: "date",
  bond_amount: "money",
  current_amount: "money",
  renewal_fee: "money",
  archived: "boolean",
  record_type: { labels: RECORD_TYPE_LABELS },
  expiry_rule: { labels: EXPIRY_RULE_LABELS },
  // The ledger writes the label; a code is mapped all the same.
  bond_status: { labels: BOND_STATUS_LABELS },
  bond_ledger: "ledger",
  collateral: "collateral",
  inspection: "inspection",
  reason: "reason",
  // Issue 29: a condition's task, "Inspect erosion controls due 2026-12-03" (conditions/condition-values.ts).
  task: "task",
};

/** An entry as the API gives it: the stored values and, for a reference, the names read with them. */
export interface AuditEntryValues {
  action: string;
  field: string | null;
  oldValue: string | null;
  newValue: string | null;
  /** The name of the record an id value points at (AUDIT_REFERENCE_FIELDS); null when unknown. */
  oldName?: string | null;
  newName?: string | null;
  /** Where the value came from when it was not typed (issue 28): "from document permit.pdf, page 1". */
  source?: string | null;
}

/** An entry as a person reads it. */
export interface AuditText {
  action: string;
  /** The field's label ("Responsible Person"), null for an entry about the whole permit. */
  field: string | null;
  oldValue: string | null;
  newValue: string | null;
  /**
   * Set on an entry written by accepting a document's suggestion (issue 28): "from document
   * permit.pdf, page 1", shown after the change in brackets.
   */
  source?: string;
}

export interface AuditTextOptions {
  /** The permit's company's currency (ISO 4217). */
  currency: string | null;
  /** The reader's locale: the browser's on the screens; US English by default. */
  locale?: string;
}

const titleCase = (code: string) => code.replace(/_/g, " ").replace(/\b\p{L}/gu, (c) => c.toUpperCase());

/**
 * "update" -> "Update", "maintenance_bond" -> "Maintenance Bond"; a document request's steps have
 * words of their own ("request_sent" -> "Document Requested", issue 27).
 */
export const auditActionLabel = (action: string) =>
  Object.hasOwn(REQUEST_AUDIT_ACTIONS, action)
    ? REQUEST_AUDIT_ACTIONS[action as keyof typeof REQUEST_AUDIT_ACTIONS]
    : titleCase(action);

const fieldLabel = (field: string) =>
  Object.hasOwn(REQUEST_AUDIT_FIELDS, field)
    ? REQUEST_AUDIT_FIELDS[field as keyof typeof REQUEST_AUDIT_FIELDS]
    : permitFieldLabel(field);

// The texts the writers compose (their formats are fixed; entries already written keep them).
const DAY = String.raw`(\d{4}-\d{2}-\d{2})`;
const NUMBER = String.raw`(\d+(?:\.\d+)?)`;
/** bond-ledger/ledger-writer.ts: "Rider effective 2026-08-01: +25000.00 (10 %); reason". */
const LEDGER_TEXT = new RegExp(
  String.raw`^(.+?) effective ${DAY}: ([+-]?\d+(?:\.\d+)?)(?: \(${NUMBER} %\))?(?:; ([\s\S]*))?$`,
);
/** bonds/collateral.service.ts: "Letter of Credit 50000.00 held since 2026-07-15". */
const COLLATERAL_TEXT = new RegExp(String.raw`^(.+) ${NUMBER} held since ${DAY}$`);
/** lifecycle/lifecycle.service.ts: "Final: Passed on 2026-11-20". */
const INSPECTION_TEXT = new RegExp(String.raw`^([\s\S]+): (\S+) on ${DAY}$`);
/** lifecycle/lifecycle.service.ts, an inspection-driven extension: "Final passed on 2026-11-20 (+180 days)". */
/** conditions/condition-values.ts: "Inspect erosion controls due 2026-12-03". */
const TASK_TEXT = new RegExp(String.raw`^([\s\S]+) due ${DAY}$`);
const INSPECTION_REASON = new RegExp(String.raw`^([\s\S]+) passed on ${DAY} (\(\+\d+ days?\))$`);

function valueText(
  kind: ValueKind | undefined,
  value: string,
  { currency, locale = DISPLAY_LOCALE }: AuditTextOptions,
): string {
  const day = (iso: string) => formatDate(iso, locale) ?? iso;
  const money = (amount: string) => formatAmount(amount, currency, locale) ?? amount;
  if (kind === undefined) return value;
  if (typeof kind === "object") return Object.hasOwn(kind.labels, value) ? kind.labels[value]! : value;
  switch (kind) {
    case "date":
      return day(value);
    case "money":
      return money(value);
    case "boolean":
      return value === "true" ? "Yes" : value === "false" ? "No" : value;
    case "ledger": {
      const m = LEDGER_TEXT.exec(value);
      if (!m) return value;
      const [, what, date, change, percent, reason] = m;
      const share = percent ? ` (${formatPercentOf(percent, locale)})` : "";
      return `${what} effective ${day(date!)}: ${formatAmountChange(change!, currency, locale)}${share}${
        reason ? `; ${reason}` : ""
      }`;
    }
    case "collateral": {
      const m = COLLATERAL_TEXT.exec(value);
      return m ? `${m[1]} ${money(m[2]!)} held since ${day(m[3]!)}` : value;
    }
    case "inspection": {
      const m = INSPECTION_TEXT.exec(value);
      return m ? `${m[1]}: ${m[2]} on ${day(m[3]!)}` : value;
    }
    case "reason":
      return extensionReasonText(value, locale);
    case "task": {
      const m = TASK_TEXT.exec(value);
      return m ? `${m[1]} due ${day(m[2]!)}` : value;
    }
  }
}

/**
 * An extension's reason in words: the one an inspection wrote ("Final passed on 2026-11-20 (+180
 * days)") with its date as the screens show it; a typed reason is the user's own words, as typed.
 * For the audit trail and the Terms card alike.
 */
export function extensionReasonText(reason: string, locale: string = DISPLAY_LOCALE): string {
  const m = INSPECTION_REASON.exec(reason);
  return m ? `${m[1]} passed on ${formatDate(m[2], locale) ?? m[2]} ${m[3]}` : reason;
}

function referenceText(reference: AuditReference, value: string | null, name: string | null | undefined) {
  if (value === null) return null;
  return name || UNNAMED_REFERENCE[reference];
}

/** An audit entry in words: its action and field labels, its values as the screens show them. */
export function auditText(entry: AuditEntryValues, options: AuditTextOptions): AuditText {
  const field = entry.field;
  const own = <T extends object>(table: T) =>
    field && Object.hasOwn(table, field) ? table[field as keyof T] : undefined;
  const reference = own(AUDIT_REFERENCE_FIELDS);
  const kind = own(FIELD_KINDS);
  const text = (value: string | null, name: string | null | undefined) =>
    reference
      ? referenceText(reference, value, name)
      : value === null
        ? null
        : valueText(kind, value, options);
  return {
    action: auditActionLabel(entry.action),
    field: field ? fieldLabel(field) : null,
    oldValue: text(entry.oldValue, entry.oldName),
    newValue: text(entry.newValue, entry.newName),
    ...(entry.source ? { source: entry.source } : {}),
  };
}
