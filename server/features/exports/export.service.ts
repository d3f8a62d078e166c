import type { Readable } from "node:stream";
import { and, sql } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import { canViewContactDetails } from "../../access/policies/contact.ts";
import { exportsCompanyColumn, exportsStaffEmails } from "../../access/policies/export.ts";
import { queryRows, selectedAsKeys, type Db } from "../../db/client.ts";
import { keysetAfter } from "../../db/keyset.ts";
import { clients, companies, permits, projects } from "../../db/schema.ts";
import { BOND_STATUS_LABELS, type BondStatus } from "../../../shared/domain/bonds.ts";
import { CSV_TEMPLATE_COLUMNS } from "../../../shared/domain/constants.ts";
import { EXPIRY_RULE_LABELS, type ExpiryRule } from "../../../shared/domain/lifecycle.ts";
import { RECORD_TYPE_LABELS, type RecordType } from "../../../shared/domain/statuses.ts";
import type { PermitListFilter, PermitSortField } from "../../../shared/schemas/permit-list-query.ts";
import { permitContactEmailsColumn } from "../contacts/index.ts";
import { OPTIONAL_EXTRA_COLUMNS } from "../imports/index.ts";
import {
  listConditions,
  listKeyset,
  listOrder,
  selectPermitView,
  taskCountsSql,
  type TaskCountsRow,
} from "../permits/index.ts";
import {
  lastRequestCell,
  openRequestsCell,
  permitRequestsColumn,
  type ExportRequest,
} from "./export-requests.ts";
import { csvStream, xlsxStream, type Cell, type SheetColumn } from "./writers.ts";

const PAGE = 2_000;

/** The import's columns first, so that an export imports back as the same permits. */
export function exportColumns(actor: Actor): string[] {
  // Renew By is derived (expiration minus lead time) and the currency is the company's: exported for
  // readers, ignored by the import.
  const columns: string[] = [...CSV_TEMPLATE_COLUMNS, ...OPTIONAL_EXTRA_COLUMNS, "renew_by_date", "currency"];
  // Issue 27: the document requests, for readers (the import ignores them).
  columns.push("open_requests", "last_request");
  // Issue 29: the permit's condition tasks, for readers (the import ignores them).
  columns.push("open_tasks", "overdue_tasks", "next_task_due");
  if (exportsCompanyColumn(actor)) columns.push("company");
  return columns;
}

/**
 * The Excel export's column headings: words a reader knows. Each one normalises back to its column
 * name (normaliseHeader: "Start Date" -> start_date), so the import reads either form.
 */
export const EXPORT_HEADINGS: Record<string, string> = {
  project: "Project",
  start_date: "Start Date",
  project_number: "Project Number",
  project_name: "Project Name",
  phase: "Phase",
  aka: "AKA",
  client: "Client",
  permit_number: "Permit Number",
  agency: "Agency",
  permit_name: "Permit Name",
  application_date: "Application Date",
  status: "Status",
  issue_date: "Issue Date",
  expiration_date: "Expiration Date",
  record_type: "Record Type",
  grantor_link: "Grantor Link",
  close_date: "Close Date",
  bond_amount: "Bond Amount",
  surety_company: "Surety Company",
  current_amount: "Current Amount",
  bond_status: "Bond Status",
  bond_number: "Bond Number",
  guarantee_type: "Guarantee Type",
  responsible_email: "Responsible Email",
  expiry_rule: "Expiry Rule",
  expiry_days: "Expiry Days",
  renewal_lead_days: "Renewal Lead Days",
  contacts: "Contacts",
  renew_by_date: "Renew By Date",
  currency: "Currency",
  open_requests: "Open Requests",
  last_request: "Last Request",
  open_tasks: "Open Tasks",
  overdue_tasks: "Overdue Tasks",
  next_task_due: "Next Task Due",
  company: "Company",
};

/**
 * Columns holding calendar dates: ISO text in CSV (what spreadsheets read as dates, and the import
 * reads back), date cells in Excel shown as the screens show dates ("Dec 1, 2027").
 */
const DATE_COLUMNS = new Set([
  "start_date",
  "application_date",
  "issue_date",
  "expiration_date",
  "close_date",
  "renew_by_date",
  "next_task_due",
]);
/** Amounts: two decimals in CSV (the currency in its own column), number cells in their currency in Excel. */
const MONEY_COLUMNS = new Set(["bond_amount", "current_amount"]);

/** One exported permit as the driver reads it. */
interface ExportRow {
  permitNumber: string;
  permitName: string;
  agency: string | null;
  status: string;
  recordType: string;
  startDate: string | null;
  applicationDate: string | null;
  issueDate: string | null;
  expirationDate: string | null;
  closeDate: string | null;
  phase: string | null;
  aka: string | null;
  grantorLink: string | null;
  bondAmount: string | null;
  suretyCompany: string | null;
  currentAmount: string | null;
  bondStatus: string | null;
  bondNumber: string | null;
  guaranteeType: string | null;
  expiryRule: string | null;
  expiryDays: number | null;
  renewalLeadDays: number | null;
  renewByDate: string | null;
  currency: string;
  responsibleEmail: string | null;
  /** The listed contacts' e-mails, "; " between them (issue 27); null for a client-user. */
  contactEmails: string | null;
  /** The permit's document requests, newest first (issue 27); null when none. */
  requests: ExportRequest[] | null;
  /** The permit's open condition tasks in brief (issue 29). */
  tasks: TaskCountsRow;
  projectName: string | null;
  projectNumber: string | null;
  clientName: string | null;
  companyName: string;
  /** Where the page ends, for the next one (keyset pagination): the sort column, created_at, id. */
  pageKey: string | null;
  pageCreatedAt: string;
  pageId: string;
}

const amount = (value: string | null, r: ExportRow): Cell =>
  value === null ? null : { amount: Number(value), currency: r.currency };

/**
 * Each export column's cell from a row (staff e-mails only for an actor the export policy allows).
 * Coded values in the words the screens use (issue 25): 'Bond / Guarantee', 'Days after last
 * passed inspection', 'Reduced'; the import reads them back (imports/rows.ts).
 */
const CELLS: Record<string, (r: ExportRow, staffEmails: boolean) => Cell> = {
  project: (r) => r.projectName,
  start_date: (r) => r.startDate,
  project_number: (r) => r.projectNumber,
  project_name: (r) => r.projectName,
  phase: (r) => r.phase,
  aka: (r) => r.aka,
  client: (r) => r.clientName,
  permit_number: (r) => r.permitNumber,
  agency: (r) => r.agency,
  permit_name: (r) => r.permitName,
  application_date: (r) => r.applicationDate,
  status: (r) => r.status,
  issue_date: (r) => r.issueDate,
  expiration_date: (r) => r.expirationDate,
  record_type: (r) => RECORD_TYPE_LABELS[r.recordType as RecordType] ?? r.recordType,
  grantor_link: (r) => r.grantorLink,
  close_date: (r) => r.closeDate,
  bond_amount: (r) => amount(r.bondAmount, r),
  surety_company: (r) => r.suretyCompany,
  current_amount: (r) => amount(r.currentAmount, r),
  bond_status: (r) =>
    r.bondStatus ? (BOND_STATUS_LABELS[r.bondStatus as BondStatus] ?? r.bondStatus) : null,
  bond_number: (r) => r.bondNumber,
  guarantee_type: (r) => r.guaranteeType,
  responsible_email: (r, staffEmails) => (staffEmails ? r.responsibleEmail : null),
  expiry_rule: (r) =>
    r.expiryRule ? (EXPIRY_RULE_LABELS[r.expiryRule as ExpiryRule] ?? r.expiryRule) : null,
  // Whole days as text: the CSV writes numbers as money (two decimals).
  expiry_days: (r) => (r.expiryDays === null ? null : String(r.expiryDays)),
  renewal_lead_days: (r) => (r.renewalLeadDays === null ? null : String(r.renewalLeadDays)),
  contacts: (r) => r.contactEmails,
  renew_by_date: (r) => r.renewByDate,
  currency: (r) => r.currency,
  open_requests: (r) => openRequestsCell(r.requests),
  last_request: (r) => lastRequestCell(r.requests),
  // Counts as text: the CSV writes numbers as money (two decimals).
  open_tasks: (r) => String(r.tasks.open),
  overdue_tasks: (r) => String(r.tasks.overdue),
  next_task_due: (r) => r.tasks.nextDueOn,
  company: (r) => r.companyName,
};

/** The current view's rows (same filters, order and access rules as the list), page by page. */
async function* exportRows(
  db: Db,
  actor: Actor,
  query: PermitListFilter & { sort?: PermitSortField; dir: "asc" | "desc" },
) {
  const staffEmails = exportsStaffEmails(actor);
  // Contacts' e-mails go to staff only; a client-user's column stays empty (not even read).
  const contactEmails = canViewContactDetails(actor)
    ? permitContactEmailsColumn(permits.id)
    : sql<null>`null`;
  const cells = exportColumns(actor).map((c) => CELLS[c] ?? (() => null));
  // Rows as the driver reads them (10,000 rows × 31 columns: drizzle's mapping cost more than
  // writing the CSV); the columns are text, dates (text), numerics (text) and integers. Each page
  // starts after the last row of the one before (keyset: db/keyset.ts), never at an OFFSET.
  const keyset = listKeyset(query);
  const pageAfter = (last: ExportRow | null) => {
    const page = selectPermitView(
      db,
      selectedAsKeys<keyof ExportRow>({
        permitNumber: permits.permitNumber,
        permitName: permits.permitName,
        agency: permits.agency,
        status: permits.status,
        recordType: permits.recordType,
        startDate: permits.startDate,
        applicationDate: permits.permitApplicationDate,
        issueDate: permits.issueDate,
        expirationDate: permits.expirationDate,
        closeDate: permits.closeDate,
        phase: permits.phase,
        aka: permits.aka,
        grantorLink: permits.grantorLink,
        bondAmount: permits.bondAmount,
        // The surety's name from Surety Admin (the typed text for a bond without a surety row).
        suretyCompany: sql<
          string | null
        >`coalesce((select s.name from sureties s where s.id = ${permits.suretyId}), ${permits.suretyCompany})`,
        currentAmount: permits.currentAmount,
        bondStatus: permits.bondStatus,
        bondNumber: permits.bondNumber,
        guaranteeType: permits.guaranteeType,
        expiryRule: permits.expiryRule,
        expiryDays: permits.expiryDays,
        renewalLeadDays: permits.renewalLeadDays,
        renewByDate: permits.renewByDate,
        currency: companies.currency,
        // One scalar subquery by primary key, not a lookup per row in code.
        responsibleEmail: sql<
          string | null
        >`(select u.email from users u where u.id = ${permits.responsibleUserId})`,
        contactEmails,
        requests: permitRequestsColumn(),
        // Issue 29: one JSON column per row (an index lookup), not a query per row.
        tasks: taskCountsSql(`"companies"."time_zone"`),
        projectName: projects.name,
        projectNumber: projects.projectNumber,
        clientName: clients.name,
        companyName: companies.name,
        pageKey: keyset.key ? sql<string | null>`${keyset.key}::text` : sql<null>`null`,
        pageCreatedAt: sql<string>`${permits.createdAt}::text`,
        pageId: permits.id,
      }),
    )
      .where(
        and(
          listConditions(actor, query),
          last
            ? keysetAfter({
                ...keyset,
                last: {
                  key: last.pageKey,
                  tie: [sql`${last.pageCreatedAt}::timestamptz`, sql`${last.pageId}::uuid`],
                },
              })
            : undefined,
        ),
      )
      .orderBy(...listOrder(query))
      .limit(PAGE);
    return queryRows<ExportRow>(db, page);
  };
  // The next page is asked for before this one is written: the database reads it meanwhile, and
  // the export takes about as long as its statements instead of their time plus the writing.
  const ahead = (last: ExportRow | null) => {
    const rows = pageAfter(last);
    // Awaited later: a failure meanwhile (or after the reader went away) is not unhandled.
    rows.catch(() => undefined);
    return rows;
  };
  let next: Promise<ExportRow[]> | null = ahead(null);
  while (next) {
    const rows: ExportRow[] = await next;
    next = rows.length < PAGE ? null : ahead(rows[rows.length - 1]!);
    for (const r of rows) yield cells.map((cell) => cell(r, staffEmails));
  }
}

/** The export's columns as the writers take them: dates as date cells, amounts as money. */
function sheetColumns(actor: Actor): SheetColumn[] {
  return exportColumns(actor).map((key) => ({
    key,
    header: EXPORT_HEADINGS[key] ?? key,
    type: DATE_COLUMNS.has(key) ? "date" : MONEY_COLUMNS.has(key) ? "money" : "text",
  }));
}

/** CSV with a BOM (so Excel reads UTF-8) and CRLF line ends, streamed. */
export function exportCsv(db: Db, actor: Actor, query: Parameters<typeof exportRows>[2]): Readable {
  return csvStream(sheetColumns(actor), exportRows(db, actor, query));
}

/**
 * An .xlsx workbook with one sheet, written as a stream: readable headings, dates as date cells
 * shown as the screens show them, bond amounts as numbers in the company's currency, columns as
 * wide as their content.
 */
export function exportXlsx(db: Db, actor: Actor, query: Parameters<typeof exportRows>[2]): Readable {
  return xlsxStream("Permits", sheetColumns(actor), exportRows(db, actor, query));
}
