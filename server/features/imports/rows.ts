import { CSV_TEMPLATE_COLUMNS } from "../../../shared/domain/constants.ts";
import { isIsoDate } from "../../../shared/domain/dates.ts";
import {
  GUARANTEE_TYPES,
  PERMIT_STATUSES,
  RECORD_TYPE_LABELS,
  type GuaranteeType,
  type PermitStatus,
  type RecordType,
} from "../../../shared/domain/statuses.ts";
import {
  DEFAULT_EXPIRY_DAYS,
  EXPIRY_DAYS_MAX,
  EXPIRY_RULE_LABELS,
  EXPIRY_RULES,
  LEAD_DAYS_MAX,
  type ExpiryRule,
} from "../../../shared/domain/lifecycle.ts";
import {
  BOND_STATUS_LABELS,
  BOND_STATUSES,
  fromCents,
  nextLedgerState,
  toCents,
  type BondStatus,
  type LedgerEntryLike,
  type LedgerKind,
  type LedgerStep,
} from "../../../shared/domain/bonds.ts";
import { CONTACT_LIMITS, splitContactEmails } from "../../../shared/domain/contacts.ts";
import { CsvError, normaliseHeader, type CsvTable } from "./csv.ts";

/** "fixed", "after_inspection", or their labels ("Fixed date", "Days after last passed inspection"). */
function parseExpiryRule(raw: string): ExpiryRule | null {
  if (!raw) return "fixed";
  const key = normaliseHeader(raw);
  return EXPIRY_RULES.find((r) => r === key || normaliseHeader(EXPIRY_RULE_LABELS[r]) === key) ?? null;
}

/** A whole number within [min, max], or null when empty; undefined when it is not one. */
function parseWhole(raw: string, min: number, max: number): number | null | undefined {
  if (!raw) return null;
  if (!/^\d{1,6}$/.test(raw)) return undefined;
  const n = Number(raw);
  return n >= min && n <= max ? n : undefined;
}

export const REQUIRED_COLUMNS = ["project", "start_date", "permit_number"] as const;
/** Beyond the spec's template: the export writes these too, so an export imports back whole. */
export const OPTIONAL_EXTRA_COLUMNS = [
  "close_date",
  "bond_amount",
  "surety_company",
  "bond_number",
  "guarantee_type",
  // Issue 11: who answers for the permit, and how its expiry and renewal are counted.
  "responsible_email",
  "expiry_rule",
  "expiry_days",
  "renewal_lead_days",
  // Issue 12: a bond's amount now and its status (the bond_amount is the original amount).
  "current_amount",
  "bond_status",
  // Issue 27: the contacts it lists, by e-mail ("; " between them), each a contact of the company.
  "contacts",
] as const;
const KNOWN_COLUMNS = [...CSV_TEMPLATE_COLUMNS, ...OPTIONAL_EXTRA_COLUMNS] as const;
type Column = (typeof KNOWN_COLUMNS)[number];

/** The export prefixes a quote to values a spreadsheet would run as formulas; take it off again. */
const FORMULA_GUARD = /^'(?=[=+\-@\t\r])/;

/** One CSV row, checked and converted; the import service matches its project and client. */
export interface ImportRow {
  row: number;
  project: string;
  projectNumber: string | null;
  projectName: string | null;
  client: string | null;
  permitNumber: string;
  permitName: string;
  agency: string | null;
  phase: string | null;
  aka: string | null;
  status: PermitStatus;
  recordType: RecordType;
  startDate: string;
  applicationDate: string | null;
  issueDate: string | null;
  expirationDate: string | null;
  closeDate: string | null;
  grantorLink: string | null;
  bondAmount: string | null;
  suretyCompany: string | null;
  bondNumber: string | null;
  guaranteeType: GuaranteeType | null;
  /** Lower-case; the import service matches it to a staff user of the company. */
  responsibleEmail: string | null;
  expiryRule: ExpiryRule;
  expiryDays: number | null;
  renewalLeadDays: number | null;
  /** Lower-case e-mails of the contacts it lists; the import service matches them to the company's. */
  contactEmails: string[];
  /** A bond's ledger as the file describes it: the original amount, then what brings it to its status. */
  ledger: ImportedEntry[];
}

/** One ledger entry an imported bond gets (the service dates them and writes them). */
export interface ImportedEntry {
  kind: LedgerKind;
  change: string;
  amountAfter: string;
  status: BondStatus;
  statusBefore: BondStatus | null;
}

/** "active", "Active", "REDUCED"... as a bond status; undefined when it is none. */
function parseBondStatus(raw: string): BondStatus | null | undefined {
  if (!raw) return null;
  const key = raw.trim().toLowerCase();
  return BOND_STATUSES.find((s) => s === key || BOND_STATUS_LABELS[s].toLowerCase() === key);
}

/**
 * The ledger of an imported bond (issue 12): the bond_amount as the original entry, then what
 * brings it to the file's current_amount and bond_status: a Rider (Active or Claimed at another
 * amount), a Reduction (Reduced: below the original, above 0), a Release or Cancellation (the
 * amount 0), a Claim. Without a status, a current amount below the original reads as Reduced.
 * A string says why the row cannot be imported.
 */
export function importedLedger(
  original: string,
  current: string | null,
  status: BondStatus | null,
): ImportedEntry[] | string {
  original = fromCents(toCents(original));
  const entries: LedgerEntryLike[] = [{ id: "0", kind: "original", change: original, reverses_id: null }];
  const out: ImportedEntry[] = [
    { kind: "original", change: original, amountAfter: original, status: "active", statusBefore: null },
  ];
  const push = (step: LedgerStep): string | null => {
    const r = nextLedgerState(entries, step);
    if (!r.ok) return r.message;
    out.push({
      kind: step.kind,
      change: r.change,
      amountAfter: r.amount_after,
      status: r.status,
      statusBefore: out[out.length - 1]!.status,
    });
    entries.push({ id: String(entries.length), kind: step.kind, change: r.change, reverses_id: null });
    return null;
  };
  const o = toCents(original);
  const c = current === null ? null : toCents(current);
  const target = status ?? (c !== null && c < o ? "reduced" : "active");
  const rider = () => (c !== null && c !== o ? push({ kind: "rider", change: fromCents(c - o) }) : null);
  let problem: string | null = null;
  switch (target) {
    case "active":
      problem = rider();
      break;
    case "reduced":
      if (c === null || c >= o || c === 0n)
        return "a Reduced bond's current_amount must be below its bond_amount and above 0";
      problem = push({ kind: "reduction", amount: fromCents(o - c), percent: null });
      break;
    case "released":
    case "cancelled":
      if (c !== null && c !== 0n) return `a ${BOND_STATUS_LABELS[target]} bond's current_amount must be 0`;
      problem = push({ kind: target === "released" ? "release" : "cancellation" });
      break;
    case "claimed":
      problem = rider() ?? push({ kind: "claim" });
      break;
  }
  return problem ?? out;
}

export interface RejectedRow {
  row: number;
  reason: string;
}

const MAX_TEXT = 500;
/** An e-mail address as far as the import can tell (the contact's own check was made when it was added). */
const EMAIL = /^[^\s@;,]+@[^\s@;,]+\.[^\s@;,]+$/;
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
/** "Dec 1, 2027" or "December 1, 2027": how the screens and the Excel export show a date. */
const WORDS_DATE = /^([A-Za-z]{3,9})\.? (\d{1,2}), (\d{4})$/;
const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/**
 * ISO (2026-03-01), US (3/1/2026, 03/01/2026) or as the screens and the Excel export show it
 * (Mar 1, 2026; March 1, 2026: an Excel export saved as CSV) to ISO; null when it is none of these
 * or not a real date.
 */
export function parseImportDate(value: string): string | null {
  const v = value.trim();
  if (isIsoDate(v)) return v;
  const us = US_DATE.exec(v);
  const words = us ? null : WORDS_DATE.exec(v);
  let parts: [string, string, string] | null = null;
  if (us) parts = [us[3]!, us[1]!, us[2]!];
  else if (words) {
    const name = words[1]!.toLowerCase();
    const month = MONTHS.findIndex((m) => name === m || name === m.slice(0, 3)) + 1;
    if (month > 0) parts = [words[3]!, String(month), words[2]!];
  }
  if (!parts) return null;
  const iso = `${parts[0]}-${parts[1].padStart(2, "0")}-${parts[2].padStart(2, "0")}`;
  return isIsoDate(iso) ? iso : null;
}

/**
 * An amount as the file has it: "1250.50", "1,250.50", or in a currency as the Excel export shows
 * it ("$1,250.50", "€1,250.50", "CHF 1,250.50", "CA$1,250.50"), to "1250.50"; other text is kept
 * as it is (and refused by the amount's check).
 */
export function importAmount(raw: string): string {
  const m = /^(?:[A-Z]{3}\s?|[A-Z]{0,2}[$€£¥₹₩₪₫₱₦₴₸₺₼₽]\s?)?(\d[\d,]*(?:\.\d+)?)$/u.exec(raw.trim());
  return (m ? m[1]! : raw).replace(/,/g, "");
}

/** Maps the header to template columns; refuses a file without the required ones. */
export function mapColumns(header: string[]): Map<Column, number> {
  const known = new Set<string>(KNOWN_COLUMNS);
  const map = new Map<Column, number>();
  header.forEach((name, i) => {
    const key = normaliseHeader(name);
    if (known.has(key) && !map.has(key as Column)) map.set(key as Column, i);
  });
  const missing = REQUIRED_COLUMNS.filter((c) => !map.has(c));
  if (missing.length) {
    throw new CsvError(
      `The first row must name the columns; missing: ${missing.join(", ")}. ` +
        `Download the template for the expected columns (${CSV_TEMPLATE_COLUMNS.join(", ")}).`,
    );
  }
  return map;
}

/** Checks every row; a row is either converted or rejected with its row number and reason. */
export function validateRows(table: CsvTable): { valid: ImportRow[]; rejected: RejectedRow[] } {
  const columns = mapColumns(table.header);
  const valid: ImportRow[] = [];
  const rejected: RejectedRow[] = [];
  for (const { row, fields } of table.rows) {
    const get = (c: Column) => {
      const i = columns.get(c);
      return i === undefined ? "" : (fields[i] ?? "").trim().replace(FORMULA_GUARD, "");
    };
    const problems: string[] = [];
    const project = get("project");
    const permitNumber = get("permit_number");
    const startRaw = get("start_date");
    if (!project || !permitNumber || !startRaw) {
      rejected.push({ row, reason: `Row ${row}: Missing required fields` });
      continue;
    }
    const date = (c: Column) => {
      const raw = get(c);
      if (!raw) return null;
      const parsed = parseImportDate(raw);
      if (!parsed) problems.push(`${c} '${raw}' is not a date (use YYYY-MM-DD or MM/DD/YYYY)`);
      return parsed;
    };
    const startDate = date("start_date");
    const applicationDate = date("application_date");
    const issueDate = date("issue_date");
    const expirationDate = date("expiration_date");
    const closeDate = date("close_date");
    if (startDate && expirationDate && expirationDate < startDate)
      problems.push("expiration_date is before start_date");

    // The codes, or the labels the screens and the export use ('Bond / Guarantee').
    const typeRaw = get("record_type").toLowerCase();
    let recordType: RecordType = "permit";
    if (typeRaw === "bond" || typeRaw === "guarantee" || typeRaw === RECORD_TYPE_LABELS.bond.toLowerCase())
      recordType = "bond";
    else if (typeRaw && typeRaw !== "permit" && typeRaw !== RECORD_TYPE_LABELS.permit.toLowerCase())
      problems.push(`record_type '${get("record_type")}' must be permit, bond or guarantee`);

    const statusRaw = get("status");
    const status = statusRaw
      ? PERMIT_STATUSES.find((s) => s.toLowerCase() === statusRaw.toLowerCase())
      : ("Required" as const);
    if (!status) problems.push(`status '${statusRaw}' must be one of ${PERMIT_STATUSES.join(", ")}`);

    const amountRaw = importAmount(get("bond_amount"));
    if (amountRaw && !/^\d{1,12}(\.\d{1,2})?$/.test(amountRaw)) {
      problems.push(
        `bond_amount '${get("bond_amount")}' must be a number of at most 2 decimals, not negative`,
      );
    }
    const currentRaw = importAmount(get("current_amount"));
    if (currentRaw && !/^\d{1,12}(\.\d{1,2})?$/.test(currentRaw)) {
      problems.push(
        `current_amount '${get("current_amount")}' must be a number of at most 2 decimals, not negative`,
      );
    }
    const bondStatus = parseBondStatus(get("bond_status"));
    if (bondStatus === undefined)
      problems.push(`bond_status '${get("bond_status")}' must be one of ${BOND_STATUSES.join(", ")}`);
    let ledger: ImportedEntry[] = [];
    if (recordType === "bond" && !problems.length) {
      if (amountRaw) {
        const made = importedLedger(amountRaw, currentRaw || null, bondStatus ?? null);
        if (typeof made === "string") problems.push(made);
        else ledger = made;
      } else if (currentRaw || (bondStatus && bondStatus !== "active")) {
        problems.push("current_amount and bond_status need a bond_amount (the original amount)");
      }
    }
    const guaranteeRaw = get("guarantee_type");
    const guaranteeType = guaranteeRaw
      ? GUARANTEE_TYPES.find((g) => g.toLowerCase() === guaranteeRaw.toLowerCase())
      : null;
    if (guaranteeType === undefined)
      problems.push(`guarantee_type '${guaranteeRaw}' must be Performance or Maintenance`);

    const expiryRule = parseExpiryRule(get("expiry_rule"));
    if (!expiryRule) problems.push(`expiry_rule '${get("expiry_rule")}' must be fixed or after_inspection`);
    const expiryDaysRaw = parseWhole(get("expiry_days"), 1, EXPIRY_DAYS_MAX);
    if (expiryDaysRaw === undefined)
      problems.push(
        `expiry_days '${get("expiry_days")}' must be a whole number from 1 to ${EXPIRY_DAYS_MAX}`,
      );
    const leadDays = parseWhole(get("renewal_lead_days"), 0, LEAD_DAYS_MAX);
    if (leadDays === undefined)
      problems.push(
        `renewal_lead_days '${get("renewal_lead_days")}' must be a whole number from 0 to ${LEAD_DAYS_MAX}`,
      );
    const responsibleEmail = get("responsible_email").toLowerCase() || null;

    const link = get("grantor_link");
    if (link && !/^https?:\/\/\S+$/i.test(link)) problems.push("grantor_link must be an http(s) address");
    for (const c of KNOWN_COLUMNS) {
      if (c !== "contacts" && get(c).length > MAX_TEXT)
        problems.push(`${c} is longer than ${MAX_TEXT} characters`);
    }
    const contactEmails = [...new Set(splitContactEmails(get("contacts")))];
    const notEmail = contactEmails.find((e) => e.length > CONTACT_LIMITS.email || !EMAIL.test(e));
    if (notEmail !== undefined) problems.push(`contacts '${notEmail}' is not an e-mail address`);
    else if (contactEmails.length > CONTACT_LIMITS.perPermit)
      problems.push(`contacts names more than ${CONTACT_LIMITS.perPermit} contacts`);

    if (problems.length) {
      rejected.push({ row, reason: `Row ${row}: ${problems.join("; ")}` });
      continue;
    }
    const opt = (c: Column) => get(c) || null;
    valid.push({
      row,
      project,
      projectNumber: opt("project_number"),
      projectName: opt("project_name"),
      client: opt("client"),
      permitNumber,
      permitName: get("permit_name") || permitNumber,
      agency: opt("agency"),
      phase: opt("phase"),
      aka: opt("aka"),
      status: status!,
      recordType,
      startDate: startDate!,
      applicationDate,
      issueDate,
      expirationDate,
      closeDate,
      grantorLink: link || null,
      bondAmount: amountRaw || null,
      suretyCompany: opt("surety_company"),
      bondNumber: opt("bond_number"),
      guaranteeType: guaranteeType ?? null,
      responsibleEmail,
      expiryRule: expiryRule!,
      // The inspection rule needs its days (many building departments: 180); a fixed date has none.
      expiryDays: expiryRule === "after_inspection" ? (expiryDaysRaw ?? DEFAULT_EXPIRY_DAYS) : null,
      renewalLeadDays: leadDays ?? null,
      contactEmails,
      ledger,
    });
  }
  return { valid, rejected };
}
