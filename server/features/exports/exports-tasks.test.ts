import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { addTestTask } from "../../test-support/condition-tasks.ts";
import { statementsOf } from "../../test-support/statements.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { parseCsv } from "../imports/index.ts";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";

/**
 * Issue 29: the export's task columns ('Open Tasks', 'Overdue Tasks', 'Next Task Due'), in CSV and
 * Excel, read in the export's statement (one JSON column), not a query per row.
 */
const t = useTestContext();
const ZONE = "Asia/Tokyo";
const csvOf = (body: string) => parseCsv(body.replace(/^\uFEFF/, ""));

async function setup() {
  const company = await t.make.company({ timeZone: ZONE });
  const today = todayIn(ZONE);
  const a = await t.make.permit({ companyId: company.id, permitNumber: "A-1" });
  const b = await t.make.permit({ companyId: company.id, permitNumber: "B-1" });
  await t.make.permit({ companyId: company.id, permitNumber: "C-1" });
  const task = (permitId: string, dueOn: string, status?: "open" | "done") =>
    addTestTask(t.db, { companyId: company.id, permitId, dueOn, status, timeZone: ZONE });
  await task(a.id, addDays(today, -3));
  await task(a.id, addDays(today, 5));
  await task(a.id, addDays(today, -9), "done");
  await task(b.id, addDays(today, 12));
  const api = await t.signIn(await t.make.user({ role: "company-admin", companyId: company.id }));
  return { api, today };
}

describe("the export's task columns", () => {
  it("writes open, overdue and the next due date per permit in CSV, from the export's one statement", async () => {
    const { api, today } = await setup();
    const { result: res, statements } = await statementsOf(t.database, () =>
      api.get("/api/permits/export?format=csv&sort=permit_number"),
    );
    expect(res.statusCode).toBe(200);
    expect(statements.filter((s) => /condition_tasks/i.test(s))).toHaveLength(1);
    const table = csvOf(res.body);
    const col = (name: string) => table.header.indexOf(name);
    const cells = table.rows.map((r) => [
      r.fields[col("permit_number")],
      r.fields[col("open_tasks")],
      r.fields[col("overdue_tasks")],
      r.fields[col("next_task_due")],
    ]);
    expect(cells).toEqual([
      ["A-1", "2", "1", addDays(today, -3)],
      ["B-1", "1", "0", addDays(today, 12)],
      ["C-1", "0", "0", ""],
    ]);
  });

  it("writes them under readable headings in Excel, the next due date as a date cell", async () => {
    const { api, today } = await setup();
    const res = await api.get("/api/permits/export?format=xlsx&sort=permit_number");
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet("Permits")!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
    const at = (row: number, name: string) => sheet.getRow(row).getCell(header.indexOf(name) + 1).value;
    expect(header).toEqual(expect.arrayContaining(["Open Tasks", "Overdue Tasks", "Next Task Due"]));
    expect([at(2, "Open Tasks"), at(2, "Overdue Tasks")]).toEqual(["2", "1"]);
    const [y, m, d] = addDays(today, -3).split("-").map(Number);
    expect(at(2, "Next Task Due")).toEqual(new Date(Date.UTC(y!, m! - 1, d!)));
    expect(at(4, "Next Task Due")).toBeNull();
  });
});
