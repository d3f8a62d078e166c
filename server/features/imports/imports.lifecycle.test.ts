import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { permits } from "../../db/schema.ts";
import type { ApiClient } from "../../test-support/harness.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { multipart } from "../../test-support/multipart.ts";
import { parseCsv } from "./csv.ts";

// Issue 11: the import and the export carry the responsible person, the expiry rule and the lead time.
const t = useTestContext();

const upload = (api: ApiClient, csv: string) =>
  api.request({
    method: "POST",
    url: "/api/imports/permits",
    ...multipart([{ name: "file", filename: "permits.csv", contentType: "text/csv", content: csv }]),
  });

let n = 0;
async function setup() {
  n++;
  const company = await t.make.company();
  const admin = await t.make.user({ role: "company-admin", companyId: company.id });
  const staff = await t.make.user({
    role: "company-user",
    companyId: company.id,
    email: `Pat.Lee${n}@example.com`,
  });
  const client = await t.make.client(company.id, "Seen");
  const clientUser = await t.make.user({
    role: "client-user",
    companyId: company.id,
    clientIds: [client.id],
  });
  const outsider = await t.make.user({ role: "company-user", companyId: (await t.make.company()).id });
  return { company, admin: await t.signIn(admin), staff, clientUser, outsider };
}

describe("import: responsible person, expiry rule, renewal lead time", () => {
  it("matches the responsible e-mail to the company's staff, reads the rule and the days, and rejects the rest", async () => {
    const w = await setup();
    const csv = [
      "project,start_date,permit_number,expiration_date,responsible_email,expiry_rule,expiry_days,renewal_lead_days",
      `Alpha,2026-01-01,P-1,2027-01-01,pat.lee${n}@EXAMPLE.com,fixed,,30`,
      "Alpha,2026-01-01,P-2,2027-01-01,,Days after last passed inspection,,",
      "Alpha,2026-01-01,P-3,2027-01-01,,after_inspection,90,",
      `Alpha,2026-01-01,P-4,2027-01-01,${w.clientUser.email},,,`,
      `Alpha,2026-01-01,P-5,2027-01-01,${w.outsider.email},,,`,
      "Alpha,2026-01-01,P-6,2027-01-01,,sometimes,,",
      "Alpha,2026-01-01,P-7,2027-01-01,,,,400",
    ].join("\n");
    const res = await upload(w.admin, csv);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.inserted.map((r: { permit_number: string }) => r.permit_number)).toEqual([
      "P-1",
      "P-2",
      "P-3",
    ]);
    expect(body.rejected.map((r: { reason: string }) => r.reason)).toEqual([
      `Row 5: responsible_email '${w.clientUser.email}' is not a staff user of this company`,
      `Row 6: responsible_email '${w.outsider.email}' is not a staff user of this company`,
      "Row 7: expiry_rule 'sometimes' must be fixed or after_inspection",
      "Row 8: renewal_lead_days '400' must be a whole number from 0 to 365",
    ]);
    const rows = await t.db.select().from(permits).where(eq(permits.companyId, w.company.id));
    const by = Object.fromEntries(rows.map((r) => [r.permitNumber, r]));
    expect(by["P-1"]).toMatchObject({
      responsibleUserId: w.staff.id,
      expiryRule: "fixed",
      expiryDays: null,
      renewalLeadDays: 30,
      renewByDate: "2026-12-02",
    });
    expect(by["P-2"]).toMatchObject({ expiryRule: "after_inspection", expiryDays: 180 });
    expect(by["P-3"]).toMatchObject({ expiryRule: "after_inspection", expiryDays: 90 });
  });
});

describe("export: the new columns, and staff e-mails only for staff", () => {
  it("writes the columns back so the file imports again, and leaves the e-mail out for a client-user", async () => {
    const w = await setup();
    const client = (await t.make.client(w.company.id, "Visible")).id;
    const project = await t.make.project({ companyId: w.company.id, clientId: client, name: "Beta" });
    await t.make.permit({
      companyId: w.company.id,
      projectId: project.id,
      permitNumber: "E-1",
      expirationDate: "2027-06-30",
      responsibleUserId: w.staff.id,
      renewalLeadDays: 60,
      expiryRule: "after_inspection",
      expiryDays: 120,
    });
    const csv = await w.admin.get("/api/permits/export?format=csv");
    const table = parseCsv(csv.body.replace(/^\uFEFF/, ""));
    const row = Object.fromEntries(table.header.map((h, i) => [h, table.rows[0]!.fields[i]]));
    expect(row).toMatchObject({
      responsible_email: w.staff.email,
      // In the screens' words (issue 25); the import reads the label back.
      expiry_rule: "Days after last passed inspection",
      expiry_days: "120",
      renewal_lead_days: "60",
      renew_by_date: "2027-05-01",
    });

    const viewer = await t.make.user({ role: "client-user", companyId: w.company.id, clientIds: [client] });
    const theirs = await (await t.signIn(viewer)).get("/api/permits/export?format=csv");
    const seen = parseCsv(theirs.body.replace(/^\uFEFF/, ""));
    const emailAt = seen.header.indexOf("responsible_email");
    expect(seen.rows).toHaveLength(1);
    expect(seen.rows[0]!.fields[emailAt]).toBe("");
    expect(theirs.body).not.toContain(w.staff.email);
  });
});
