import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import { clients, permitAudit, permits, projects } from "../../db/schema.ts";
import type { ApiClient } from "../../test-support/harness.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { multipart } from "../../test-support/multipart.ts";

const t = useTestContext();

const HEADER =
  "project,start_date,project_number,project_name,client,permit_number,agency,permit_name,expiration_date,record_type";

function upload(
  api: ApiClient,
  csv: string | Buffer,
  opts: { companyId?: string; dryRun?: boolean; filename?: string } = {},
) {
  const parts = [
    ...(opts.companyId ? [{ name: "company_id", content: opts.companyId }] : []),
    { name: "file", filename: opts.filename ?? "permits.csv", contentType: "text/csv", content: csv },
  ];
  return api.request({
    method: "POST",
    url: `/api/imports/permits${opts.dryRun ? "?dry_run=true" : ""}`,
    ...multipart(parts),
  });
}

async function companyWithAdmin() {
  const company = await t.make.company();
  const admin = await t.make.user({ role: "company-admin", companyId: company.id });
  return { company, api: await t.signIn(admin) };
}

const countPermits = async (companyId: string) =>
  (await t.db.select().from(permits).where(eq(permits.companyId, companyId))).length;

describe("import permits: access", () => {
  it("requires sign-in, and refuses company-users and client-users", async () => {
    expect((await upload(t.anonymous, `${HEADER}\n`)).statusCode).toBe(401);
    const company = await t.make.company();
    const client = await t.make.client(company.id);
    for (const role of ["company-user", "client-user"] as const) {
      const user = await t.make.user({
        role,
        companyId: company.id,
        clientIds: role === "client-user" ? [client.id] : [],
      });
      const api = await t.signIn(user);
      expect((await upload(api, `${HEADER}\nA,2026-01-01,,,,N-1,,,,`)).statusCode).toBe(403);
      expect((await api.get("/api/imports/permits/template.csv")).statusCode).toBe(403);
    }
    expect(await countPermits(company.id)).toBe(0);
  });

  it("imports a company-admin's rows into its own company, whatever company it names", async () => {
    const { company, api } = await companyWithAdmin();
    const other = await t.make.company();
    const res = await upload(api, `${HEADER}\nMain St,2026-01-05,,,,N-1,City,Building,2026-12-31,permit`, {
      companyId: other.id,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().company.id).toBe(company.id);
    expect(await countPermits(company.id)).toBe(1);
    expect(await countPermits(other.id)).toBe(0);
  });

  it("makes a super-admin choose an existing company", async () => {
    const superAdmin = await t.signIn(await t.make.user({ role: "super-admin" }));
    const csv = `${HEADER}\nMain St,2026-01-05,,,,N-1,City,Building,2026-12-31,permit`;
    const missing = await upload(superAdmin, csv);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe("Company ID is missing. Please select a company.");
    expect((await upload(superAdmin, csv, { companyId: t.make.uuid() })).statusCode).toBe(404);
    const company = await t.make.company();
    expect((await upload(superAdmin, csv, { companyId: company.id })).statusCode).toBe(200);
    expect(await countPermits(company.id)).toBe(1);
  });
});

describe("import permits: rules", () => {
  it("matches projects by number or name, creates missing ones with their client, and writes audit entries", async () => {
    const { company, api } = await companyWithAdmin();
    const acme = await t.make.client(company.id, "Acme Corp");
    const existing = await t.make.project({
      companyId: company.id,
      name: "Harbor Bridge",
      projectNumber: "HB-1",
      clientId: acme.id,
    });
    const csv = [
      HEADER,
      "Harbor,2026-01-05,HB-1,,,N-1,Port Authority,Pier permit,2026-12-31,permit",
      "Harbor Bridge,01/06/2026,,,,N-2,Port Authority,Deck permit,,bond",
      "New Tower,2026-02-01,NT-9,New Tower,acme corp,N-3,City,Tower permit,2027-01-01,guarantee",
      "Depot,2026-02-01,,,Fresh Client,N-4,City,Depot permit,,permit",
    ].join("\r\n");
    const res = await upload(api, csv);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.inserted.map((r: { row: number }) => r.row)).toEqual([2, 3, 4, 5]);
    expect(body.projects_created).toEqual(["NT-9 New Tower", "Depot"]);
    expect(body.clients_created).toEqual(["Fresh Client"]);

    const rows = await t.db
      .select()
      .from(permits)
      .where(eq(permits.companyId, company.id))
      .orderBy(permits.permitNumber);
    expect(rows.map((p) => [p.permitNumber, p.recordType])).toEqual([
      ["N-1", "permit"],
      ["N-2", "bond"],
      ["N-3", "bond"],
      ["N-4", "permit"],
    ]);
    expect(rows[0]!.projectId).toBe(existing.id);
    expect(rows[1]!.projectId).toBe(existing.id);
    expect(rows[1]!.startDate).toBe("2026-01-06");
    expect(rows[0]!.clientId).toBe(acme.id);
    expect(rows[2]!.clientId).toBe(acme.id); // "acme corp" matched case-insensitively
    const [fresh] = await t.db
      .select()
      .from(clients)
      .where(and(eq(clients.companyId, company.id), eq(clients.name, "Fresh Client")));
    expect(rows[3]!.clientId).toBe(fresh!.id);
    const audit = await t.db.select().from(permitAudit).where(eq(permitAudit.permitId, rows[0]!.id));
    expect(audit).toMatchObject([{ action: "import", newValue: "N-1" }]);
  });

  it("skips duplicates in the same project, rejects bad rows with reasons, and re-running inserts nothing", async () => {
    const { company, api } = await companyWithAdmin();
    const csv = [
      HEADER,
      "Main St,2026-01-05,,,,N-1,City,A,,permit",
      "Main St,2026-01-05,,,,n-1,City,A again,,permit",
      "Other,2026-01-05,,,,N-1,City,Same number other project,,permit",
      ",2026-01-05,,,,N-9,City,No project,,permit",
      "Main St,2026-31-01,,,,N-10,City,Bad date,,permit",
      "Main St,2026-01-05,,,,N-11,City,Bad type,,license",
      "",
    ].join("\n");
    const first = (await upload(api, csv)).json();
    expect(first.inserted.map((r: { row: number }) => r.row)).toEqual([2, 4]);
    expect(first.skipped).toEqual([
      {
        row: 3,
        permit_number: "n-1",
        project: "Main St",
        reason: "Duplicate of an earlier row in this file",
      },
    ]);
    expect(first.rejected.map((r: { reason: string }) => r.reason)).toEqual([
      "Row 5: Missing required fields",
      "Row 6: start_date '2026-31-01' is not a date (use YYYY-MM-DD or MM/DD/YYYY)",
      "Row 7: record_type 'license' must be permit, bond or guarantee",
    ]);
    const again = (await upload(api, csv)).json();
    expect(again.inserted).toEqual([]);
    expect(again.skipped.map((s: { reason: string }) => s.reason)).toEqual([
      "Already in this project",
      "Already in this project",
      "Already in this project",
    ]);
    expect(await countPermits(company.id)).toBe(2);
    expect((await t.db.select().from(projects).where(eq(projects.companyId, company.id))).length).toBe(2);
  });

  it("previews the first 10 rows and what would happen in a dry run, writing nothing", async () => {
    const { company, api } = await companyWithAdmin();
    const lines = Array.from(
      { length: 25 },
      (_, i) => `P,2026-01-05,,,New Client,N-${i},City,Permit ${i},,permit`,
    );
    const res = await upload(api, `${HEADER}\n${lines.join("\n")}`, { dryRun: true });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.dry_run).toBe(true);
    expect(body.total_rows).toBe(25);
    expect(body.preview.columns).toEqual(HEADER.split(","));
    expect(body.preview.rows).toHaveLength(10);
    expect(body.preview.rows[0][5]).toBe("N-0");
    expect(body.inserted).toHaveLength(25);
    expect(body.projects_created).toEqual(["P"]);
    expect(await countPermits(company.id)).toBe(0);
    expect((await t.db.select().from(clients).where(eq(clients.companyId, company.id))).length).toBe(0);
  });

  it("accepts semicolons, a BOM, quoted commas and newlines", async () => {
    const { company, api } = await companyWithAdmin();
    const csv = `\uFEFFProject;Start Date;Permit Number;Permit Name;Agency\r\n"Main; St";2026-01-05;N-1;"Line one\nline two";"Dept, Roads"\r\n`;
    const res = await upload(api, csv);
    expect(res.statusCode).toBe(200);
    const [row] = await t.db.select().from(permits).where(eq(permits.companyId, company.id));
    expect(row).toMatchObject({ permitName: "Line one\nline two", agency: "Dept, Roads" });
  });
});

describe("import permits: bad files change nothing", () => {
  it("answers each bad file with a clear 4xx and writes nothing", async () => {
    const { company, api } = await companyWithAdmin();
    const cases: [string | Buffer, number, RegExp][] = [
      [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]), 400, /binary data/],
      ["name,date\nfoo,bar", 400, /missing: project, start_date, permit_number/],
      ["", 400, /empty/],
      [`${HEADER}\n"unterminated,2026-01-01,,,,N-1`, 400, /never closed/],
      [`${Array.from({ length: 1000 }, (_, i) => `c${i}`).join(",")}\n1`, 400, /more than 100 columns/],
      [
        `${HEADER}\n${Array.from({ length: 20_001 }, (_, i) => `P,2026-01-01,,,,N-${i},,,,`).join("\n")}`,
        400,
        /more than 20,000 rows/,
      ],
      [Buffer.alloc(11 * 1024 * 1024, 0x61), 413, /larger than 10 MB/],
    ];
    for (const [csv, status, message] of cases) {
      const res = await upload(api, csv);
      expect(res.statusCode, String(message)).toBe(status);
      expect(res.json().message).toMatch(message);
    }
    expect(await countPermits(company.id)).toBe(0);
    const [n] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from projects where company_id = ${company.id}`,
    );
    expect(n!.n).toBe(0);
  });

  it("rolls everything back when a write fails midway", async () => {
    const { company, api } = await companyWithAdmin();
    // The project and client are written first; then a trigger makes the permits insert fail.
    await t.db.execute(sql`create or replace function fail_on_boom() returns trigger as $$
      begin if new.permit_number = 'BOOM' then raise exception 'boom'; end if; return new; end $$ language plpgsql`);
    await t.db.execute(
      sql`create trigger fail_on_boom before insert on permits for each row execute function fail_on_boom()`,
    );
    try {
      const csv = `${HEADER}\nNew Project,2026-01-05,,,New Client,N-1,,,,\nNew Project,2026-01-05,,,,BOOM,,,,`;
      const res = await upload(api, csv);
      expect(res.statusCode).toBe(500);
      expect(res.json().message).not.toMatch(/boom/);
    } finally {
      await t.db.execute(sql`drop trigger fail_on_boom on permits`);
    }
    expect(await countPermits(company.id)).toBe(0);
    expect((await t.db.select().from(projects).where(eq(projects.companyId, company.id))).length).toBe(0);
    expect((await t.db.select().from(clients).where(eq(clients.companyId, company.id))).length).toBe(0);
  });

  it("serves the template with the spec's columns", async () => {
    const { api } = await companyWithAdmin();
    const res = await api.get("/api/imports/permits/template.csv");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-disposition"]).toContain("attachment");
    expect(res.body.split("\r\n")[0]).toBe(
      "project,start_date,project_number,project_name,phase,aka,client,permit_number,agency,permit_name,application_date,status,issue_date,expiration_date,record_type,grantor_link",
    );
  });
});
