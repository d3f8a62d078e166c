import ExcelJS from "exceljs";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { permits } from "../../db/schema.ts";
import { queryRows } from "../../db/client.ts";
import { statementsOf } from "../../test-support/statements.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { multipart } from "../../test-support/multipart.ts";
import { parseCsv } from "../imports/index.ts";
import { normaliseHeader } from "../imports/csv.ts";
import { formatAmount, formatDate } from "../../../shared/domain/format.ts";
import { exportColumns } from "./export.service.ts";

/** The export's column names for a company-admin (the heading count tells there is no company column). */
const exportColumnsOf = (count: number) =>
  exportColumns({ role: "company-admin" } as Parameters<typeof exportColumns>[0]).slice(0, count);

const t = useTestContext();

async function setup() {
  const company = await t.make.company();
  const acme = await t.make.client(company.id, "Acme");
  const zenith = await t.make.client(company.id, "Zenith");
  const pa = await t.make.project({
    companyId: company.id,
    clientId: acme.id,
    name: "Acme Tower",
    projectNumber: "AT-1",
  });
  const pz = await t.make.project({
    companyId: company.id,
    clientId: zenith.id,
    name: "Zenith Mall",
    projectNumber: "ZM-1",
  });
  const base = { companyId: company.id, startDate: "2026-01-05", expirationDate: "2026-12-31" };
  await t.make.permit({
    ...base,
    projectId: pa.id,
    permitNumber: "A-1",
    permitName: '=HYPERLINK("http://evil")',
    agency: "+City",
  });
  await t.make.permit({
    ...base,
    projectId: pa.id,
    permitNumber: "A-2",
    permitName: "Performance bond",
    recordType: "bond",
    bondAmount: "125000.50",
    suretyCompany: "Liberty",
    bondNumber: "SB-9",
    guaranteeType: "Performance",
    agency: "@County",
  });
  await t.make.permit({
    ...base,
    projectId: pz.id,
    permitNumber: "Z-1",
    permitName: "Grading, phase 1",
    agency: "-Roads\nDept",
  });
  await t.make.permit({
    ...base,
    projectId: pz.id,
    permitNumber: "Z-2",
    permitName: "Hidden N/A",
    status: "N/A",
  });
  await t.make.permit({
    ...base,
    projectId: pz.id,
    permitNumber: "Z-3",
    permitName: "Archived",
    archived: true,
  });
  const admin = await t.make.user({ role: "company-admin", companyId: company.id });
  return { company, acme, admin };
}

const csvOf = (body: string) => parseCsv(body.replace(/^\uFEFF/, ""));

describe("permit list export", () => {
  it("requires sign-in", async () => {
    expect((await t.anonymous.get("/api/permits/export")).statusCode).toBe(401);
  });

  it("exports the current view as CSV with neutralised formulas, in list order, without other companies", async () => {
    const { admin } = await setup();
    await setup(); // another company's permits must not appear
    const api = await t.signIn(admin);
    const res = await api.get("/api/permits/export?format=csv&sort=permit_number&dir=desc");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/csv");
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="permits-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(res.body.startsWith("\uFEFF")).toBe(true);
    const table = csvOf(res.body);
    const col = (name: string) => table.header.indexOf(name);
    expect(table.header).not.toContain("company");
    expect(table.rows.map((r) => r.fields[col("permit_number")])).toEqual(["Z-1", "A-2", "A-1"]);
    const a1 = table.rows[2]!.fields;
    expect(a1[col("permit_name")]).toBe('\'=HYPERLINK("http://evil")');
    expect(a1[col("agency")]).toBe("'+City");
    expect(a1[col("client")]).toBe("Acme");
    expect(table.rows[1]!.fields[col("agency")]).toBe("'@County");
    // Amounts stay numbers a spreadsheet adds up, in the currency beside them; coded values read as
    // the screens say them, dates as ISO dates (what spreadsheets read as dates, and the import reads).
    expect(table.rows[1]!.fields[col("bond_amount")]).toBe("125000.50");
    expect(table.rows[1]!.fields[col("currency")]).toBe("USD");
    expect(table.rows[1]!.fields[col("record_type")]).toBe("Bond / Guarantee");
    expect(a1[col("record_type")]).toBe("Permit");
    expect(a1[col("expiry_rule")]).toBe("Fixed date");
    expect(a1[col("expiration_date")]).toBe("2026-12-31");
    expect(table.rows[0]!.fields[col("agency")]).toBe("'-Roads\nDept");
    expect(table.rows[0]!.fields[col("permit_name")]).toBe("Grading, phase 1");
  });

  it("honours the list's filters and toggles", async () => {
    const { admin } = await setup();
    const api = await t.signIn(admin);
    const numbers = async (query: string) => {
      const table = csvOf((await api.get(`/api/permits/export?${query}`)).body);
      return table.rows.map((r) => r.fields[table.header.indexOf("permit_number")]).sort();
    };
    expect(await numbers("record_type=bond")).toEqual(["A-2"]);
    expect(await numbers("q=grading")).toEqual(["Z-1"]);
    expect(await numbers("show_archived=true")).toEqual(["A-1", "A-2", "Z-1", "Z-3"]);
    expect(await numbers("show_non_required=true")).toEqual(["A-1", "A-2", "Z-1"]);
    expect((await api.get("/api/permits/export?format=pdf")).statusCode).toBe(400);
  });

  it("exports a view longer than one page whole, in order, each row once", async () => {
    // More than two of the export's 2,000-row pages, the next one read while the last is written.
    const company = await t.make.company();
    await t.db.execute(sql`insert into permits (company_id, permit_number, permit_name)
      select ${company.id}, 'P-' || lpad(g::text, 5, '0'), 'Bulk ' || g from generate_series(1, 4500) g`);
    const api = await t.signIn(await t.make.user({ role: "company-admin", companyId: company.id }));
    const res = await api.get("/api/permits/export?format=csv&sort=permit_number&dir=asc");
    expect(res.statusCode).toBe(200);
    const table = csvOf(res.body);
    const numbers = table.rows.map((r) => r.fields[table.header.indexOf("permit_number")]);
    expect(numbers).toEqual(Array.from({ length: 4500 }, (_, i) => `P-${String(i + 1).padStart(5, "0")}`));
  });

  it("pages on a sort column with ties and empty values by keyset, in both directions, each row once", async () => {
    // Issue 26: pages start after the last row read (never at an OFFSET). Three agencies and no
    // agency at all, 4,500 permits made in one statement (one created_at): every page boundary
    // falls inside a run of ties, broken by the id.
    const company = await t.make.company();
    await t.db.execute(sql`insert into permits (company_id, permit_number, permit_name, agency)
      select ${company.id}, 'K-' || g, 'Keyset ' || g, (array['Water', 'County', 'State', null])[1 + g % 4]
      from generate_series(1, 4500) g`);
    const api = await t.signIn(await t.make.user({ role: "company-admin", companyId: company.id }));
    for (const dir of ["asc", "desc"] as const) {
      const { result: res, statements } = await statementsOf(t.database, () =>
        api.get(`/api/permits/export?format=csv&sort=agency&dir=${dir}`),
      );
      // Three pages, each read after the last row of the one before: no OFFSET anywhere.
      expect(statements.filter((s) => /\bfrom "permits"/i.test(s))).toHaveLength(3);
      expect(statements.filter((s) => /\boffset\b/i.test(s))).toEqual([]);
      const table = csvOf(res.body);
      const exported = table.rows.map((r) => r.fields[table.header.indexOf("permit_number")]);
      const expected = await queryRows<{ n: string }>(
        t.db,
        sql`select permit_number as n from permits where company_id = ${company.id}
            order by agency ${sql.raw(dir)} nulls last, created_at, id`,
      );
      expect(exported).toEqual(expected.map((r) => r.n));
      expect(new Set(exported).size).toBe(4500);
    }
  });

  it("gives a client-user only its clients' permits", async () => {
    const { company, acme } = await setup();
    const clientUser = await t.make.user({
      role: "client-user",
      companyId: company.id,
      clientIds: [acme.id],
    });
    const api = await t.signIn(clientUser);
    const table = csvOf((await api.get("/api/permits/export")).body);
    expect(table.rows.map((r) => r.fields[table.header.indexOf("client")])).toEqual(["Acme", "Acme"]);
  });

  it("adds the company column for the super-admin", async () => {
    const { company } = await setup();
    const api = await t.signIn(await t.make.user({ role: "super-admin" }));
    const table = csvOf((await api.get("/api/permits/export")).body);
    expect(table.header.at(-1)).toBe("company");
    expect(table.rows.some((r) => r.fields.at(-1) === company.name)).toBe(true);
  });

  it("exports an Excel workbook with the same rows, readable headings, date cells and number cells", async () => {
    const { admin } = await setup();
    const api = await t.signIn(admin);
    const res = await api.get("/api/permits/export?format=xlsx&sort=permit_number");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet("Permits")!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
    expect(header.slice(0, 4)).toEqual(["Project", "Start Date", "Project Number", "Project Name"]);
    expect(header).toContain("Expiration Date");
    // Every heading reads back as its import column: the import takes either form.
    expect(header.map(normaliseHeader)).toEqual(exportColumnsOf(header.length));
    const cell = (row: number, name: string) => sheet.getRow(row).getCell(header.indexOf(name) + 1);
    const at = (row: number, name: string) => cell(row, name).value;
    expect(sheet.rowCount).toBe(4);
    expect(at(2, "Permit Number")).toBe("A-1");
    expect(at(2, "Permit Name")).toBe('\'=HYPERLINK("http://evil")');
    // Amounts are number cells in the company's currency, as the screens show them.
    expect(at(3, "Bond Amount")).toBe(125000.5);
    expect(cell(3, "Bond Amount").numFmt).toBe('"$"#,##0.00');
    expect(at(3, "Currency")).toBe("USD");
    // Dates are date cells of the calendar day (not text), shown as the screens show them.
    expect(at(2, "Expiration Date")).toEqual(new Date(Date.UTC(2026, 11, 31)));
    expect(cell(2, "Expiration Date").numFmt).toBe("mmm d, yyyy");
    expect(at(2, "Start Date")).toEqual(new Date(Date.UTC(2026, 0, 5)));
    expect(at(2, "Close Date")).toBeNull();
    // Coded values in words.
    expect(at(2, "Record Type")).toBe("Permit");
    expect(at(3, "Record Type")).toBe("Bond / Guarantee");
    expect(at(2, "Expiry Rule")).toBe("Fixed date");
    // Columns as wide as what they hold (issue 25, item 7): no name is cut.
    const width = (name: string) => sheet.getColumn(header.indexOf(name) + 1).width!;
    expect(width("Permit Name")).toBeGreaterThanOrEqual('\'=HYPERLINK("http://evil")'.length);
    expect(width("Record Type")).toBeGreaterThanOrEqual("Bond / Guarantee".length);
    expect(width("Expiry Rule")).toBeGreaterThanOrEqual("Fixed date".length);
    expect(width("Responsible Email")).toBeGreaterThanOrEqual("Responsible Email".length);
  });

  it("sizes a column to its longest name, and caps a very long one", async () => {
    const { admin, company } = await setup();
    const project = await t.make.project({
      companyId: company.id,
      name: "Riverside Commons Mixed-Use Redevelopment, Phase 2",
    });
    await t.make.permit({
      companyId: company.id,
      projectId: project.id,
      permitNumber: "L-1",
      permitName: "Stormwater pollution prevention ".repeat(6).trim(),
      startDate: "2026-01-05",
      expirationDate: "2026-12-31",
    });
    const res = await (await t.signIn(admin)).get("/api/permits/export?format=xlsx");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet("Permits")!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
    const width = (name: string) => sheet.getColumn(header.indexOf(name) + 1).width!;
    expect(width("Project")).toBeGreaterThanOrEqual(
      "Riverside Commons Mixed-Use Redevelopment, Phase 2".length,
    );
    expect(width("Permit Name")).toBe(50);
    // Short columns stay narrow.
    expect(width("Phase")).toBeLessThan(15);
  });

  it("imports an Excel export saved as CSV (readable headings, the cells as shown) as the same permits", async () => {
    const { admin } = await setup();
    const res = await (await t.signIn(admin)).get("/api/permits/export?format=xlsx");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet("Permits")!;
    // Saved as CSV, a spreadsheet writes each cell as it shows it: "Dec 31, 2026", "$125,000.50".
    const shown = (cell: ExcelJS.Cell) => {
      const v = cell.value;
      if (v instanceof Date) return formatDate(v.toISOString().slice(0, 10))!;
      if (typeof v === "number" && cell.numFmt === '"$"#,##0.00') return formatAmount(v, "USD")!;
      return v == null ? "" : String(v);
    };
    const lines: string[] = [];
    sheet.eachRow((row) => {
      const values: string[] = [];
      for (let i = 1; i <= sheet.columnCount; i++) values.push(shown(row.getCell(i)));
      lines.push(values.map((v) => `"${v.replace(/"/g, '""')}"`).join(","));
    });
    expect(lines.join("\n")).toContain('"Dec 31, 2026"');
    expect(lines.join("\n")).toContain('"$125,000.50"');
    const empty = await t.make.company();
    const otherAdmin = await t.signIn(await t.make.user({ role: "company-admin", companyId: empty.id }));
    const imported = await otherAdmin.request({
      method: "POST",
      url: "/api/imports/permits",
      ...multipart([
        { name: "file", filename: "export.csv", contentType: "text/csv", content: lines.join("\r\n") },
      ]),
    });
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json().rejected).toEqual([]);
    const rows = await t.db.select().from(permits).where(eq(permits.companyId, empty.id));
    expect(
      rows.map((p) => [p.permitNumber, p.startDate, p.expirationDate, p.recordType, p.bondAmount]).sort(),
    ).toEqual([
      ["A-1", "2026-01-05", "2026-12-31", "permit", null],
      ["A-2", "2026-01-05", "2026-12-31", "bond", "125000.50"],
      ["Z-1", "2026-01-05", "2026-12-31", "permit", null],
    ]);
  });

  it("round-trips: an export imported into an empty company gives the same permits", async () => {
    const { company, admin } = await setup();
    const exported = (await (await t.signIn(admin)).get("/api/permits/export")).body;

    const empty = await t.make.company();
    const otherAdmin = await t.signIn(await t.make.user({ role: "company-admin", companyId: empty.id }));
    const res = await otherAdmin.request({
      method: "POST",
      url: "/api/imports/permits",
      ...multipart([{ name: "file", filename: "export.csv", contentType: "text/csv", content: exported }]),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().rejected).toEqual([]);

    const shape = async (companyId: string) =>
      (await t.db.select().from(permits).where(eq(permits.companyId, companyId)))
        .filter((p) => p.status !== "N/A" && !p.archived)
        .map((p) => ({
          number: p.permitNumber,
          name: p.permitName,
          agency: p.agency,
          status: p.status,
          type: p.recordType,
          start: p.startDate,
          expiration: p.expirationDate,
          bond: [p.bondAmount, p.suretyCompany, p.bondNumber, p.guaranteeType],
        }))
        .sort((a, b) => a.number.localeCompare(b.number));
    expect(await shape(empty.id)).toEqual(await shape(company.id));
  });
});
