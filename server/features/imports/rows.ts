import { CSV_TEMPLATE_COLUMNS } from "../../../shared/domain/constants.ts";
import { isIsoDate } from "../../../shared/domain/dates.ts";
import {
  GUARANTEE_TYPES,
  PERMIT_STATUSES,
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
}

export interface RejectedRow {
  row: number;
  reason: string;
}

const MAX_TEXT = 500;
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** ISO (2026-03-01) or US (3/1/2026, 03/01/2026) to ISO; null when it is neither or not a real date. */
export function parseImportDate(value: string): string | null {
  const v = value.trim();
  if (isIsoDate(v)) return v;
  const us = US_DATE.exec(v);
  if (!us) return null;
  const iso = `${us[3]}-${us[1]!.padStart(2, "0")}-${us[2]!.padStart(2, "0")}`;
  return isIsoDate(iso) ? iso : null;
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

    const typeRaw = get("record_type").toLowerCase();
    let recordType: RecordType = "permit";
    if (typeRaw === "bond" || typeRaw === "guarantee") recordType = "bond";
    else if (typeRaw && typeRaw !== "permit")
      problems.push(`record_type '${get("record_type")}' must be permit, bond or guarantee`);

    const statusRaw = get("status");
    const status = statusRaw
      ? PERMIT_STATUSES.find((s) => s.toLowerCase() === statusRaw.toLowerCase())
      : ("Required" as const);
    if (!status) problems.push(`status '${statusRaw}' must be one of ${PERMIT_STATUSES.join(", ")}`);

    const amountRaw = get("bond_amount").replace(/,/g, "");
    if (amountRaw && !/^\d{1,12}(\.\d{1,2})?$/.test(amountRaw)) {
      problems.push(
        `bond_amount '${get("bond_amount")}' must be a number of at most 2 decimals, not negative`,
      );
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
      if (get(c).length > MAX_TEXT) problems.push(`${c} is longer than ${MAX_TEXT} characters`);
    }

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
    });
  }
  return { valid, rejected };
}
