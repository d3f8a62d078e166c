import { PassThrough, Readable } from "node:stream";
import ExcelJS from "exceljs";
import { eq } from "drizzle-orm";
import { actorCan, type Actor } from "../../access/actor.ts";
import type { Db } from "../../db/client.ts";
import { clients, companies, permits, projects } from "../../db/schema.ts";
import { CSV_TEMPLATE_COLUMNS } from "../../../shared/domain/constants.ts";
import type { PermitFilter, PermitSortField } from "../../../shared/schemas/permits.ts";
import { listConditions, listOrder } from "../permits/permits.repository.ts";
import { OPTIONAL_EXTRA_COLUMNS } from "../imports/rows.ts";

const PAGE = 2_000;

/** The import's columns first, so that an export imports back as the same permits. */
export function exportColumns(actor: Actor): string[] {
  const columns: string[] = [...CSV_TEMPLATE_COLUMNS, ...OPTIONAL_EXTRA_COLUMNS];
  if (actorCan(actor, "allCompanies")) columns.push("company");
  return columns;
}

type Cell = string | number | null;

/**
 * A value a spreadsheet would run as a formula (=, +, -, @, tab, carriage return first) gets a
 * leading quote, so it shows as text; the import takes the quote off again.
 */
export function neutralise(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** The current view's rows (same filters, order and access rules as the list), page by page. */
async function* exportRows(
  db: Db,
  actor: Actor,
  query: PermitFilter & { sort?: PermitSortField; dir: "asc" | "desc" },
) {
  const columns = exportColumns(actor);
  for (let offset = 0; ; offset += PAGE) {
    const rows = await db
      .select({
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
        suretyCompany: permits.suretyCompany,
        bondNumber: permits.bondNumber,
        guaranteeType: permits.guaranteeType,
        projectName: projects.name,
        projectNumber: projects.projectNumber,
        clientName: clients.name,
        companyName: companies.name,
      })
      .from(permits)
      .innerJoin(companies, eq(companies.id, permits.companyId))
      .leftJoin(projects, eq(projects.id, permits.projectId))
      .leftJoin(clients, eq(clients.id, permits.clientId))
      .where(listConditions(actor, query))
      .orderBy(...listOrder(query))
      .limit(PAGE)
      .offset(offset);
    for (const r of rows) {
      const byColumn: Record<string, Cell> = {
        project: r.projectName,
        start_date: r.startDate,
        project_number: r.projectNumber,
        project_name: r.projectName,
        phase: r.phase,
        aka: r.aka,
        client: r.clientName,
        permit_number: r.permitNumber,
        agency: r.agency,
        permit_name: r.permitName,
        application_date: r.applicationDate,
        status: r.status,
        issue_date: r.issueDate,
        expiration_date: r.expirationDate,
        record_type: r.recordType,
        grantor_link: r.grantorLink,
        close_date: r.closeDate,
        bond_amount: r.bondAmount === null ? null : Number(r.bondAmount),
        surety_company: r.suretyCompany,
        bond_number: r.bondNumber,
        guarantee_type: r.guaranteeType,
        company: r.companyName,
      };
      yield columns.map((c) => byColumn[c] ?? null);
    }
    if (rows.length < PAGE) return;
  }
}

const csvField = (value: Cell) => {
  if (value === null) return "";
  const text = typeof value === "number" ? value.toFixed(2) : neutralise(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** CSV with a BOM (so Excel reads UTF-8) and CRLF line ends, streamed. */
export function exportCsv(db: Db, actor: Actor, query: Parameters<typeof exportRows>[2]): Readable {
  async function* lines() {
    yield `\uFEFF${exportColumns(actor).join(",")}\r\n`;
    for await (const row of exportRows(db, actor, query)) yield `${row.map(csvField).join(",")}\r\n`;
  }
  return Readable.from(lines());
}

/** An .xlsx workbook with one sheet, written as a stream. */
export function exportXlsx(db: Db, actor: Actor, query: Parameters<typeof exportRows>[2]): Readable {
  const out = new PassThrough();
  void (async () => {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: out,
      useStyles: true,
      useSharedStrings: false,
    });
    const sheet = workbook.addWorksheet("Permits", { views: [{ state: "frozen", ySplit: 1 }] });
    const columns = exportColumns(actor);
    sheet.columns = columns.map((c) => ({ header: c, key: c, width: Math.max(12, c.length + 2) }));
    sheet.getRow(1).font = { bold: true };
    sheet.getRow(1).commit();
    for await (const row of exportRows(db, actor, query)) {
      sheet.addRow(row.map((v) => (typeof v === "string" ? neutralise(v) : v))).commit();
    }
    sheet.commit();
    await workbook.commit();
  })().catch((err: unknown) => out.destroy(err as Error));
  return out;
}
