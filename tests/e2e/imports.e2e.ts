import { describe, expect, it } from "vitest";
import { BASE_URL, DEMO, DEMO_PASSWORD, screenshot, signIn, useBrowser } from "./support.ts";

const b = useBrowser();

const CSV = [
  "project,start_date,project_number,client,permit_number,agency,permit_name,expiration_date,record_type",
  ...Array.from(
    { length: 14 },
    (_, i) =>
      `Lakeside Clinic,2026-02-0${(i % 9) + 1},LC-2026-01,Front Range Medical,LC-E2E-${i + 1},County Health,Imported permit ${i + 1},2027-03-01,${i % 4 === 0 ? "bond" : "permit"}`,
  ),
  "Lakeside Clinic,2026-02-01,LC-2026-01,Front Range Medical,LC-E2E-1,County Health,Duplicate row,2027-03-01,permit",
  ",2026-02-01,,,LC-E2E-99,County Health,No project,,permit",
].join("\n");

describe("Import Permits from CSV", () => {
  it("previews a file, imports it, and reports inserted, duplicate and rejected rows", async () => {
    const page = await b.newPage();
    await signIn(page, DEMO.companyAdmin, DEMO_PASSWORD);
    await page.waitForURL(/\/permits$/);
    await page.goto(`${BASE_URL}/admin/import-permits`);
    await expect
      .poll(() => page.getByRole("heading", { name: "Import Permits from CSV" }).isVisible())
      .toBe(true);

    await page
      .getByLabel("CSV file")
      .setInputFiles({ name: "clinic-permits.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });
    await expect
      .poll(() => page.getByRole("table", { name: "Preview of the first rows" }).isVisible(), {
        timeout: 20_000,
      })
      .toBe(true);
    expect(
      await page.getByRole("table", { name: "Preview of the first rows" }).getByRole("row").count(),
    ).toBe(11);
    await expect.poll(() => page.getByText("Will import 14 permits").isVisible()).toBe(true);
    expect(await page.getByText("1 duplicate skipped").isVisible()).toBe(true);
    expect(await page.getByText("Row 17: Missing required fields").isVisible()).toBe(true);
    await screenshot(page, "import-preview");

    await page.getByRole("button", { name: "Import 14 permits" }).click();
    await expect
      .poll(() => page.getByText(/Import finished: 14 permits added/).isVisible(), { timeout: 30_000 })
      .toBe(true);
    await screenshot(page, "import-result");

    // The permits are really there: the list API of the same session finds them.
    const found = await page.evaluate(async () => {
      const res = await fetch("/api/permits?q=Imported%20permit&page_size=50&show_non_required=true");
      const body = (await res.json()) as { total: number };
      return body.total;
    });
    expect(found).toBe(14);
  });

  it("tells a company-user that access is denied", async () => {
    const page = await b.newPage();
    await signIn(page, DEMO.companyUser, DEMO_PASSWORD);
    await page.waitForURL(/\/permits$/);
    await page.goto(`${BASE_URL}/admin/import-permits`);
    await expect.poll(() => page.getByText("Access denied.").isVisible()).toBe(true);
  });
});

describe("Export of the permit list", () => {
  it("downloads the current view as CSV and Excel; a client-user's export holds only its clients", async () => {
    const page = await b.newPage();
    await signIn(page, DEMO.clientUser, DEMO_PASSWORD);
    await page.waitForURL(/\/permits$/);
    await page.goto(`${BASE_URL}/permits?record_type=permit`);
    const [csv] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export CSV" }).click(),
    ]);
    expect(csv.suggestedFilename()).toMatch(/^permits-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = await new Promise<string>((resolve, reject) => {
      void csv.createReadStream().then((stream) => {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        stream.on("error", reject);
      });
    });
    const [header, ...rows] = text
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    const columns = header!.split(",");
    expect(rows.length).toBeGreaterThan(0);
    // The demo client-user sees only City of Aurora, and the view is filtered to permits.
    for (const row of rows) {
      expect(row).toContain("City of Aurora");
      // in the screens' words (issue 25): the import reads the label back
      expect(row.split(",")[columns.indexOf("record_type")]).toBe("Permit");
    }
    const [xlsx] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export Excel" }).click(),
    ]);
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
    await screenshot(page, "permits-list-export");
  });
});
