import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.ts";
import { comments, permitAudit, permits } from "../../db/schema.ts";
import { useTestContext, type ApiClient } from "../../test-support/harness.ts";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";
import { listCategory } from "../../../shared/domain/permit-rules.ts";
import type { PermitDetail } from "../../../shared/schemas/permit-detail.ts";
import type { PermitList, PermitListItem } from "../../../shared/schemas/permit-list.ts";
import type { PermitSummary } from "../../../shared/schemas/permit-summary.ts";
import { likePattern } from "./permit-list-conditions.ts";
import { listCategorySql } from "./permit-summary.query.ts";

// Every test signs in a fresh set of users; the limits under test elsewhere would get in the way.
const t = useTestContext({ SIGNIN_IP_LIMIT: "100000", API_RATE_LIMIT: "100000" });

const ZONE = "Pacific/Kiritimati"; // UTC+14: "today" there is often not today in UTC
const today = () => todayIn(ZONE);

/** A company with one user of each role, two clients, a project per client, and a foreign company. */
async function world() {
  const company = await t.make.company({ timeZone: ZONE });
  const other = await t.make.company();
  const clientA = await t.make.client(company.id, "Acme Client");
  const clientB = await t.make.client(company.id, "Beta Client");
  const projectA = await t.make.project({ companyId: company.id, clientId: clientA.id, name: "Alpha Tower" });
  const projectB = await t.make.project({
    companyId: company.id,
    clientId: clientB.id,
    name: "Bridge Works",
  });
  const foreignProject = await t.make.project({ companyId: other.id });
  const adminUser = await t.make.user({
    role: "company-admin",
    companyId: company.id,
    firstName: "Ada",
    lastName: "Admin",
  });
  return {
    company,
    other,
    clientA,
    clientB,
    projectA,
    projectB,
    foreignProject,
    admin: await t.signIn(adminUser),
    adminUser,
    user: await t.signIn(await t.make.user({ role: "company-user", companyId: company.id })),
    clientUser: await t.signIn(
      await t.make.user({ role: "client-user", companyId: company.id, clientIds: [clientA.id] }),
    ),
    otherAdmin: await t.signIn(await t.make.user({ role: "company-admin", companyId: other.id })),
  };
}
let superAdminClient: ApiClient | undefined;
const superAdmin = async () =>
  (superAdminClient ??= await t.signIn(await t.make.user({ role: "super-admin" })));

const listOf = async (api: ApiClient, query = "") => {
  const res = await api.get(`/api/permits${query ? `?${query}` : ""}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as PermitList;
};
const rowsOf = (list: PermitList): PermitListItem[] =>
  list.groups.flatMap((g) => g.projects.flatMap((p) => p.permits));
const namesOf = async (api: ApiClient, query = "") =>
  rowsOf(await listOf(api, query)).map((p) => p.permit_name);
const auditOf = (permitId: string) =>
  t.db.select().from(permitAudit).where(eq(permitAudit.permitId, permitId)).orderBy(permitAudit.field);
const permitCount = async (companyId: string) =>
  (
    await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(permits)
      .where(eq(permits.companyId, companyId))
  )[0]!.n;

const validBody = (over: Record<string, unknown> = {}) => ({
  permit_number: "BP-100",
  permit_name: "Building Permit",
  record_type: "permit",
  agency: "City of Denver",
  expiration_date: "2030-06-30",
  is_required: true,
  archived: false,
  ...over,
});

/** Makes every audit insert fail, to prove a change and its audit commit or roll back together. */
async function withFailingAudit(run: () => Promise<void>) {
  await t.database.exec(`
    create or replace function test_fail_audit() returns trigger language plpgsql as $$
    begin raise exception 'audit refused (test)'; end $$;
    create trigger test_fail_audit before insert on permit_audit for each row execute function test_fail_audit();`);
  try {
    await run();
  } finally {
    await t.database.exec("drop trigger test_fail_audit on permit_audit; drop function test_fail_audit();");
  }
}

describe("every permits route requires sign-in", () => {
  it.each([
    ["GET", "/api/permits"],
    ["GET", "/api/permits/summary"],
    ["GET", "/api/permits/agencies"],
    ["GET", "/api/permits/form-options"],
    ["GET", "/api/permits/00000000-0000-4000-8000-000000000000"],
    ["POST", "/api/permits"],
    ["PUT", "/api/permits/00000000-0000-4000-8000-000000000000"],
    ["DELETE", "/api/permits/00000000-0000-4000-8000-000000000000"],
  ])("%s %s answers 401", async (method, url) => {
    const res = await t.anonymous.request({
      method: method as "GET",
      url,
      payload: method === "POST" || method === "PUT" ? validBody() : undefined,
    });
    expect(res.statusCode).toBe(401);
  });
});

describe("GET /api/permits", () => {
  it("hides N/A always, shows only Required unless Show Non-Required, and archived only on request", async () => {
    const w = await world();
    const make = (permitName: string, status: string, archived = false) =>
      t.make.permit({ companyId: w.company.id, projectId: w.projectA.id, permitName, status, archived });
    await make("required", "Required");
    await make("waiting", "In Waiting");
    await make("pending", "Pending");
    await make("expired", "Expired");
    await make("na", "N/A");
    await make("archived-required", "Required", true);
    await make("archived-na", "N/A", true);

    expect(await namesOf(w.admin)).toEqual(["required"]);
    expect(await namesOf(w.admin, "show_non_required=true")).toEqual([
      "required",
      "waiting",
      "pending",
      "expired",
    ]);
    expect(await namesOf(w.admin, "show_archived=true")).toEqual(["required", "archived-required"]);
    expect(await namesOf(w.admin, "show_archived=1&show_non_required=1")).toEqual([
      "required",
      "waiting",
      "pending",
      "expired",
      "archived-required",
    ]);
  });

  it("filters by type and by name, where % and _ match themselves", async () => {
    const w = await world();
    await t.make.permit({
      companyId: w.company.id,
      projectId: w.projectA.id,
      permitName: "Grading permit",
      recordType: "permit",
    });
    await t.make.permit({
      companyId: w.company.id,
      projectId: w.projectA.id,
      permitName: "Performance Bond",
      recordType: "bond",
    });
    await t.make.permit({ companyId: w.company.id, projectId: w.projectA.id, permitName: "100% complete_x" });
    await t.make.permit({ companyId: w.company.id, projectId: w.projectA.id, permitName: "1000 completeyx" });

    expect(await namesOf(w.admin, "record_type=bond")).toEqual(["Performance Bond"]);
    expect(await namesOf(w.admin, "record_type=permit")).toHaveLength(3);
    expect(await namesOf(w.admin, "record_type=")).toHaveLength(4);
    expect(await namesOf(w.admin, "q=GRADING")).toEqual(["Grading permit"]);
    expect(await namesOf(w.admin, `q=${encodeURIComponent("0% complete_")}`)).toEqual(["100% complete_x"]);
    expect(likePattern("a%b_c\\")).toBe("%a\\%b\\_c\\\\%");
  });

  it("sorts by each sortable column both ways (empty values last) and by creation order by default", async () => {
    const w = await world();
    const p = (
      permitNumber: string,
      permitName: string,
      agency: string | null,
      app: string | null,
      exp: string | null,
    ) =>
      t.make.permit({
        companyId: w.company.id,
        projectId: w.projectA.id,
        permitNumber,
        permitName,
        agency,
        permitApplicationDate: app,
        expirationDate: exp,
      });
    await p("N-2", "b-name", "b-agency", "2026-01-02", null);
    await p("N-3", "c-name", null, null, "2026-03-01");
    await p("N-1", "a-name", "a-agency", "2026-01-01", "2026-02-01");

    expect(await namesOf(w.admin)).toEqual(["b-name", "c-name", "a-name"]);
    const order = async (sort: string, dir: string) =>
      (await namesOf(w.admin, `sort=${sort}&dir=${dir}`)).join(",");
    expect(await order("permit_number", "asc")).toBe("a-name,b-name,c-name");
    expect(await order("permit_number", "desc")).toBe("c-name,b-name,a-name");
    expect(await order("permit_name", "asc")).toBe("a-name,b-name,c-name");
    expect(await order("permit_name", "desc")).toBe("c-name,b-name,a-name");
    expect(await order("agency", "asc")).toBe("a-name,b-name,c-name");
    expect(await order("agency", "desc")).toBe("b-name,a-name,c-name");
    expect(await order("permit_application_date", "asc")).toBe("a-name,b-name,c-name");
    expect(await order("permit_application_date", "desc")).toBe("b-name,a-name,c-name");
    expect(await order("expiration_date", "asc")).toBe("a-name,c-name,b-name");
    expect(await order("expiration_date", "desc")).toBe("c-name,a-name,b-name");
  });

  it("pages without overlap and reports the total", async () => {
    const w = await world();
    for (let i = 0; i < 5; i++)
      await t.make.permit({ companyId: w.company.id, projectId: w.projectA.id, permitName: `p${i}` });
    const first = await listOf(w.admin, "page_size=2");
    const second = await listOf(w.admin, "page_size=2&page=2");
    const third = await listOf(w.admin, "page_size=2&page=3");
    expect(first.total).toBe(5);
    expect([...rowsOf(first), ...rowsOf(second), ...rowsOf(third)].map((r) => r.permit_name)).toEqual([
      "p0",
      "p1",
      "p2",
      "p3",
      "p4",
    ]);
    expect(rowsOf(await listOf(w.admin, "page_size=2&page=9"))).toEqual([]);
  });

  it("groups a page by client then project, in the order they first appear", async () => {
    const w = await world();
    const loose = await t.make.permit({
      companyId: w.company.id,
      permitName: "no project",
      expirationDate: "2026-01-01",
    });
    await t.make.permit({
      companyId: w.company.id,
      projectId: w.projectB.id,
      permitName: "b1",
      expirationDate: "2026-01-02",
    });
    await t.make.permit({
      companyId: w.company.id,
      projectId: w.projectA.id,
      permitName: "a1",
      expirationDate: "2026-01-03",
    });
    await t.make.permit({
      companyId: w.company.id,
      projectId: w.projectB.id,
      permitName: "b2",
      expirationDate: "2026-01-04",
    });
    const list = await listOf(w.admin, "sort=expiration_date");
    expect(
      list.groups.map((g) => [
        g.client?.name ?? null,
        g.projects.map((p) => [p.project?.name ?? null, p.permits.map((x) => x.permit_name)]),
      ]),
    ).toEqual([
      [null, [[null, ["no project"]]]],
      ["Beta Client", [["Bridge Works", ["b1", "b2"]]]],
      ["Acme Client", [["Alpha Tower", ["a1"]]]],
    ]);
    expect(list.groups[1]!.projects[0]!.project).toEqual({
      id: w.projectB.id,
      name: "Bridge Works",
      project_number: w.projectB.projectNumber,
    });
    expect(rowsOf(list)[0]!.id).toBe(loose.id);
  });

  it("marks expired and expiring rows against today in the company's time zone", async () => {
    const w = await world();
    const mk = (permitName: string, expirationDate: string | null) =>
      t.make.permit({ companyId: w.company.id, projectId: w.projectA.id, permitName, expirationDate });
    await mk("yesterday", addDays(today(), -1));
    await mk("today", today());
    await mk("in30", addDays(today(), 30));
    await mk("in31", addDays(today(), 31));
    await mk("none", null);
    const rows = rowsOf(await listOf(w.admin));
    expect(rows.map((r) => [r.permit_name, r.urgency, r.display_status])).toEqual([
      ["yesterday", "expired", "Expired"],
      ["today", "expiring", "Required"],
      ["in30", "expiring", "Required"],
      ["in31", null, "Required"],
      ["none", null, "Required"],
    ]);
  });

  it("counts comments, leaving internal ones out for a client-user", async () => {
    const w = await world();
    const permit = await t.make.permit({ companyId: w.company.id, projectId: w.projectA.id });
    await t.db.insert(comments).values([
      { permitId: permit.id, companyId: w.company.id, userName: "x", text: "visible" },
      { permitId: permit.id, companyId: w.company.id, userName: "x", text: "internal", isInternal: true },
    ]);
    expect(rowsOf(await listOf(w.admin))[0]!.comment_count).toBe(2);
    expect(rowsOf(await listOf(w.clientUser))[0]!.comment_count).toBe(1);
  });

  it("shows each role its own scope and what it may do", async () => {
    const w = await world();
    await t.make.permit({ companyId: w.company.id, projectId: w.projectA.id, permitName: "client A" });
    await t.make.permit({ companyId: w.company.id, projectId: w.projectB.id, permitName: "client B" });
    await t.make.permit({ companyId: w.company.id, permitName: "no client" });
    await t.make.permit({ companyId: w.other.id, permitName: "foreign" });

    const can = async (api: ApiClient) => rowsOf(await listOf(api)).map((r) => r.can);
    // Which permits, not their order: PGlite's clock can give quick successive inserts one
    // created_at, and then the tie-breaker (the random id) decides between the groups.
    expect((await namesOf(w.admin)).sort()).toEqual(["client A", "client B", "no client"]);
    expect((await namesOf(w.user)).sort()).toEqual(["client A", "client B", "no client"]);
    expect(await namesOf(w.clientUser)).toEqual(["client A"]);
    expect(await namesOf(w.otherAdmin)).toEqual(["foreign"]);
    expect((await can(w.admin))[0]).toEqual({ edit: true, delete: true });
    expect((await can(w.user))[0]).toEqual({ edit: true, delete: false });
    expect((await can(w.clientUser))[0]).toEqual({ edit: false, delete: false });

    const unique = `cross-${w.company.id.slice(0, 8)}`;
    await t.make.permit({ companyId: w.company.id, permitName: `${unique} one` });
    await t.make.permit({ companyId: w.other.id, permitName: `${unique} two` });
    const all = rowsOf(await listOf(await superAdmin(), `q=${unique}`));
    expect(all.map((r) => [r.permit_name, r.company.id]).sort()).toEqual([
      [`${unique} one`, w.company.id],
      [`${unique} two`, w.other.id],
    ]);
    expect(all[0]!.can).toEqual({ edit: true, delete: true });
  });

  it("answers 400 with field messages for bad query values", async () => {
    const w = await world();
    for (const [query, field] of [
      ["sort=id", "sort"],
      ["dir=up", "dir"],
      ["page=0", "page"],
      ["page_size=100000", "page_size"],
      ["record_type=guarantee", "record_type"],
      ["show_archived=maybe", "show_archived"],
      [`q=${"x".repeat(201)}`, "q"],
    ]) {
      const res = await w.admin.get(`/api/permits?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(Object.keys(res.json().fields), query).toContain(field);
    }
  });
});

describe("GET /api/permits/summary", () => {
  it("counts tiles and charts over the list's filters and scope", async () => {
    const w = await world();
    const mk = (over: Partial<typeof permits.$inferInsert>) =>
      t.make.permit({ companyId: w.company.id, projectId: w.projectA.id, ...over });
    await mk({ startDate: "2026-01-01", agency: "City" }); // In Progress
    await mk({ startDate: "2026-01-01", permitApplicationDate: "2026-01-05", agency: "City" }); // In Review
    // Active and closed: a closed record leaves the expiry counts (issue 25), so not expiring soon.
    await mk({ expirationDate: addDays(today(), 10), closeDate: "2026-01-10", agency: "County" });
    await mk({ expirationDate: addDays(today(), -1), agency: "" }); // Active, expired (not "expiring soon")
    await mk({ expirationDate: addDays(today(), 90), agency: "County", recordType: "bond" }); // Active
    await mk({ permitApplicationDate: "2026-01-05", issueDate: "2026-01-09", agency: "City" }); // no category
    await mk({ status: "N/A", expirationDate: addDays(today(), 5) }); // never counted
    await mk({ status: "In Waiting", agency: "State" }); // only with Show Non-Required
    await t.make.permit({ companyId: w.other.id, expirationDate: addDays(today(), 5) });

    const res = await w.admin.get("/api/permits/summary");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      total: 6,
      in_review: 1,
      active: 3,
      closed: 1,
      expiring_soon: 0,
      expired: 1,
      renewal_due: 0,
      review: 0,
      tasks: 0,
      by_status: [
        { category: "In Progress", count: 1 },
        { category: "In Review", count: 1 },
        { category: "Active", count: 3 },
      ],
      by_agency: [
        { agency: "City", count: 3 },
        { agency: "County", count: 2 },
        { agency: "No agency", count: 1 },
      ],
      other_agencies: 0,
      in_scope: {
        permits: true,
        bonds: true,
        getting_started: { company: true, client_and_project: true, permits: true },
      },
    } satisfies PermitSummary);

    const bonds = (await w.admin.get("/api/permits/summary?record_type=bond")).json() as PermitSummary;
    expect([bonds.total, bonds.active]).toEqual([1, 1]);
    const all = (await w.admin.get("/api/permits/summary?show_non_required=true")).json() as PermitSummary;
    expect(all.total).toBe(7);
    expect((await w.clientUser.get("/api/permits/summary")).json().total).toBe(6); // all of client A
    expect((await w.otherAdmin.get("/api/permits/summary")).json().total).toBe(1);
    expect((await w.admin.get("/api/permits/summary?record_type=x")).statusCode).toBe(400);
  });

  it("keeps the ten biggest agencies and adds up the rest", async () => {
    const w = await world();
    const values = Array.from({ length: 12 }, (_, i) => ({
      companyId: w.company.id,
      permitNumber: `A-${i}`,
      permitName: `a${i}`,
      agency: `Agency ${String(i).padStart(2, "0")}`,
    }));
    await t.db.insert(permits).values([...values, { ...values[0]!, permitNumber: "A-extra" }]);
    const summary = (await w.admin.get("/api/permits/summary")).json() as PermitSummary;
    expect(summary.by_agency).toHaveLength(10);
    expect(summary.by_agency[0]).toEqual({ agency: "Agency 00", count: 2 });
    expect(summary.other_agencies).toBe(2);
  });

  it("computes the list categories in SQL exactly as shared/domain does", async () => {
    const d = (on: boolean) => (on ? "2026-01-01" : null);
    for (let bits = 0; bits < 16; bits++) {
      const dates = {
        start_date: d(!!(bits & 1)),
        permit_application_date: d(!!(bits & 2)),
        issue_date: d(!!(bits & 4)),
        expiration_date: d(!!(bits & 8)),
      };
      const [row] = await queryRows<{ category: string | null }>(
        t.db,
        sql`select ${listCategorySql({
          start: sql`${dates.start_date}::date`,
          applied: sql`${dates.permit_application_date}::date`,
          issued: sql`${dates.issue_date}::date`,
          expires: sql`${dates.expiration_date}::date`,
        })} as category`,
      );
      expect(row!.category, JSON.stringify(dates)).toBe(listCategory(dates));
    }
  });
});

describe("GET /api/permits/:id", () => {
  it("answers the detail with project, client, company, display status and capabilities", async () => {
    const w = await world();
    const permit = await t.make.permit({
      companyId: w.company.id,
      projectId: w.projectA.id,
      recordType: "bond",
      bondAmount: "125000.50",
      guaranteeType: "Performance",
      expirationDate: addDays(today(), -1),
      status: "Pending",
    });
    await t.db.insert(comments).values([
      { permitId: permit.id, companyId: w.company.id, userName: "x", text: "a" },
      { permitId: permit.id, companyId: w.company.id, userName: "x", text: "b", isInternal: true },
    ]);
    const res = await w.admin.get(`/api/permits/${permit.id}`);
    expect(res.statusCode).toBe(200);
    const detail = res.json() as PermitDetail;
    expect(detail).toMatchObject({
      id: permit.id,
      permit_number: permit.permitNumber,
      record_type: "bond",
      bond_amount: "125000.50",
      guarantee_type: "Performance",
      status: "Pending",
      display_status: "Expired",
      permit_expires: true,
      project_id: w.projectA.id,
      client_id: w.clientA.id,
      company_id: w.company.id,
      project: {
        id: w.projectA.id,
        name: "Alpha Tower",
        project_number: w.projectA.projectNumber,
        status: "Not Started",
      },
      client: { id: w.clientA.id, name: "Acme Client" },
      company: { id: w.company.id, name: w.company.name },
      comment_count: 2,
      can: { edit: true, delete: true, comment: true, upload: true, viewInternalComments: true },
    });
    expect(new Date(detail.created_at).getTime()).toBeGreaterThan(0);

    const asUser = (await w.user.get(`/api/permits/${permit.id}`)).json() as PermitDetail;
    expect(asUser.can).toEqual({
      edit: true,
      delete: false,
      comment: true,
      upload: true,
      viewInternalComments: true,
    });
    const asClient = (await w.clientUser.get(`/api/permits/${permit.id}`)).json() as PermitDetail;
    expect(asClient.can).toEqual({
      edit: false,
      delete: false,
      comment: true,
      upload: false,
      viewInternalComments: false,
    });
    expect(asClient.comment_count).toBe(1);
    expect((await (await superAdmin()).get(`/api/permits/${permit.id}`)).statusCode).toBe(200);
  });

  it("answers 404 for another company's permit, another client's permit for a client-user, and unknown ids", async () => {
    const w = await world();
    const foreign = await t.make.permit({ companyId: w.other.id });
    const clientB = await t.make.permit({ companyId: w.company.id, projectId: w.projectB.id });
    expect((await w.admin.get(`/api/permits/${foreign.id}`)).statusCode).toBe(404);
    expect((await w.clientUser.get(`/api/permits/${clientB.id}`)).statusCode).toBe(404);
    expect((await w.admin.get(`/api/permits/${t.make.uuid()}`)).json()).toMatchObject({
      code: "NOT_FOUND",
      message: "Permit not found.",
    });
    const bad = await w.admin.get("/api/permits/12");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.id).toBeDefined();
  });
});

describe("POST /api/permits", () => {
  it("creates a permit with a create audit entry, start date today in the company zone and status Required", async () => {
    const w = await world();
    const res = await w.user.post(
      "/api/permits",
      validBody({ project_id: w.projectA.id, start_date: "", issue_date: "" }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as PermitDetail;
    expect(created).toMatchObject({
      permit_number: "BP-100",
      status: "Required",
      start_date: today(),
      issue_date: null,
      project_id: w.projectA.id,
      client_id: w.clientA.id,
      company_id: w.company.id,
      bond_amount: null,
    });
    const audit = await auditOf(created.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: "create",
      newValue: "BP-100",
      userName: expect.any(String),
      companyId: w.company.id,
    });
  });

  it("saves In Waiting when Required is unticked, and a bond with its details", async () => {
    const w = await world();
    const res = await w.admin.post(
      "/api/permits",
      validBody({
        project_id: w.projectB.id,
        record_type: "bond",
        is_required: false,
        bond_amount: "1,500",
        surety_company: " Travelers ",
        bond_number: "SB-1",
        guarantee_type: "Maintenance",
        grantor_link: "county.gov/permits/1",
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      status: "In Waiting",
      record_type: "bond",
      bond_amount: "1500.00",
      surety_company: "Travelers",
      guarantee_type: "Maintenance",
      grantor_link: "https://county.gov/permits/1",
    });
  });

  it("drops bond details from a permit", async () => {
    const w = await world();
    const res = await w.admin.post(
      "/api/permits",
      validBody({
        project_id: w.projectA.id,
        bond_amount: "10",
        surety_company: "S",
        guarantee_type: "Performance",
      }),
    );
    expect(res.json()).toMatchObject({ bond_amount: null, surety_company: null, guarantee_type: null });
  });

  it("refuses a client-user (403) and writes nothing", async () => {
    const w = await world();
    const res = await w.clientUser.post("/api/permits", validBody({ project_id: w.projectA.id }));
    expect(res.statusCode).toBe(403);
    expect(await permitCount(w.company.id)).toBe(0);
  });

  it("answers 400 with the spec's messages for missing fields, and writes nothing", async () => {
    const w = await world();
    const res = await w.admin.post("/api/permits", { record_type: "bond", permit_number: "  " });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toMatchObject({
      permit_number: "Permit Number is required",
      permit_name: "Permit Name is required",
      agency: "Agency is required",
      expiration_date: "Expiration Date is required",
      guarantee_type: "Guarantee Type is required",
    });
    const noType = await w.admin.post("/api/permits", validBody({ record_type: "guarantee" }));
    expect(noType.json().fields.record_type).toBe("Record Type is required");
    expect(await permitCount(w.company.id)).toBe(0);
  });

  it("answers 400 for impossible dates, expiration before start, bad amounts, overlong text and bad links", async () => {
    const w = await world();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ expiration_date: "2025-02-30" }, "expiration_date", "Must be a valid date (YYYY-MM-DD)"],
      [{ start_date: "2025-13-01" }, "start_date", "Must be a valid date (YYYY-MM-DD)"],
      [{ issue_date: "01/02/2025" }, "issue_date", "Must be a valid date (YYYY-MM-DD)"],
      [{ start_date: "2030-07-01" }, "expiration_date", "Expiration Date cannot be before the Start Date"],
      [
        { record_type: "bond", guarantee_type: "Performance", bond_amount: "-5" },
        "bond_amount",
        "Bond amount cannot be negative",
      ],
      [
        { record_type: "bond", guarantee_type: "Performance", bond_amount: "12abc" },
        "bond_amount",
        "Bond amount must be a number with at most 2 decimals",
      ],
      [
        { record_type: "bond", guarantee_type: "Other" },
        "guarantee_type",
        "Guarantee Type must be Performance or Maintenance",
      ],
      [{ permit_name: "x".repeat(201) }, "permit_name", "Permit Name must be at most 200 characters"],
      [{ permit_number: "x".repeat(101) }, "permit_number", "Permit Number must be at most 100 characters"],
      [
        { grantor_link: "javascript:alert(1)" },
        "grantor_link",
        "Grantor link must be a web address (https://...)",
      ],
      [{ project_id: "nope" }, "project_id", "Must be a valid id"],
    ];
    for (const [over, field, message] of cases) {
      const res = await w.admin.post("/api/permits", validBody({ project_id: w.projectA.id, ...over }));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().fields[field], JSON.stringify(over)).toBe(message);
    }
    expect(await permitCount(w.company.id)).toBe(0);
  });

  it("requires a project when the company has projects, and refuses another company's project", async () => {
    const w = await world();
    const missing = await w.admin.post("/api/permits", validBody());
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual({ project_id: "Project is required" });
    const foreign = await w.admin.post("/api/permits", validBody({ project_id: w.foreignProject.id }));
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().fields.project_id).toBe("Project not found in this company.");
    const unknown = await w.admin.post("/api/permits", validBody({ project_id: t.make.uuid() }));
    expect(unknown.statusCode).toBe(400);
    expect(await permitCount(w.company.id)).toBe(0);

    const bare = await t.make.company();
    const bareAdmin = await t.signIn(await t.make.user({ role: "company-admin", companyId: bare.id }));
    const ok = await bareAdmin.post("/api/permits", validBody());
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ project: null, client: null, company_id: bare.id });
  });

  it("ignores a company id from a non-super-admin", async () => {
    const w = await world();
    const res = await w.admin.post(
      "/api/permits",
      validBody({ project_id: w.projectA.id, company_id: w.other.id }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().company_id).toBe(w.company.id);
    expect(await permitCount(w.other.id)).toBe(0);
  });

  it("makes a super-admin name an existing company", async () => {
    const w = await world();
    const sa = await superAdmin();
    const none = await sa.post("/api/permits", validBody());
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({
      message: "Company ID is missing. Please select a company.",
      fields: { company_id: "Company ID is missing. Please select a company." },
    });
    const unknown = await sa.post("/api/permits", validBody({ company_id: t.make.uuid() }));
    expect(unknown.json().fields).toEqual({ company_id: "Company not found." });
    const ok = await sa.post(
      "/api/permits",
      validBody({ company_id: w.company.id, project_id: w.projectB.id }),
    );
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().company_id).toBe(w.company.id);
  });

  it("leaves nothing behind when the audit write fails", async () => {
    const w = await world();
    await withFailingAudit(async () => {
      const res = await w.admin.post("/api/permits", validBody({ project_id: w.projectA.id }));
      expect(res.statusCode).toBe(500);
      expect(res.json().message).toBe("Something went wrong. Please try again.");
    });
    expect(await permitCount(w.company.id)).toBe(0);
  });
});

describe("PUT /api/permits/:id", () => {
  const setup = async () => {
    const w = await world();
    const created = (
      await w.admin.post("/api/permits", validBody({ project_id: w.projectA.id, start_date: "2026-01-01" }))
    ).json() as PermitDetail;
    return { ...w, permit: created };
  };

  it("writes one audit entry per changed field with old and new values", async () => {
    const w = await setup();
    const res = await w.user.put(
      `/api/permits/${w.permit.id}`,
      validBody({
        project_id: w.projectB.id,
        start_date: "2026-01-01",
        permit_name: "Renamed",
        archived: true,
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      permit_name: "Renamed",
      archived: true,
      project_id: w.projectB.id,
      client_id: w.clientB.id,
    });
    const updates = (await auditOf(w.permit.id)).filter((a) => a.action === "update");
    expect(updates.map((a) => [a.field, a.oldValue, a.newValue])).toEqual([
      ["archived", "false", "true"],
      ["client_id", w.clientA.id, w.clientB.id],
      ["permit_name", "Building Permit", "Renamed"],
      ["project_id", w.projectA.id, w.projectB.id],
    ]);

    const again = await w.user.put(
      `/api/permits/${w.permit.id}`,
      validBody({
        project_id: w.projectB.id,
        start_date: "2026-01-01",
        permit_name: "Renamed",
        archived: true,
      }),
    );
    expect(again.statusCode).toBe(200);
    expect((await auditOf(w.permit.id)).filter((a) => a.action === "update")).toHaveLength(4);
  });

  it("keeps a status the form cannot show when Required stays unticked, and sets today for an emptied start date", async () => {
    const w = await setup();
    await t.db.update(permits).set({ status: "Pending" }).where(eq(permits.id, w.permit.id));
    const res = await w.admin.put(
      `/api/permits/${w.permit.id}`,
      validBody({ project_id: w.projectA.id, is_required: false, start_date: "" }),
    );
    expect(res.json()).toMatchObject({ status: "Pending", start_date: today() });
    const ticked = await w.admin.put(
      `/api/permits/${w.permit.id}`,
      validBody({ project_id: w.projectA.id, is_required: true }),
    );
    expect(ticked.json().status).toBe("Required");
  });

  it("compares bond amounts as money, not as text", async () => {
    const w = await setup();
    const bond = validBody({
      project_id: w.projectA.id,
      start_date: "2026-01-01",
      record_type: "bond",
      guarantee_type: "Performance",
      bond_amount: "2500",
    });
    await w.admin.put(`/api/permits/${w.permit.id}`, bond);
    const before = (await auditOf(w.permit.id)).length;
    const res = await w.admin.put(`/api/permits/${w.permit.id}`, { ...bond, bond_amount: "2500.00" });
    expect(res.json().bond_amount).toBe("2500.00");
    expect((await auditOf(w.permit.id)).length).toBe(before);
  });

  it("refuses a client-user (403) on its own client's permit and answers 404 for other companies' and clients' permits", async () => {
    const w = await setup();
    expect(
      (await w.clientUser.put(`/api/permits/${w.permit.id}`, validBody({ project_id: w.projectA.id })))
        .statusCode,
    ).toBe(403);
    const clientB = await t.make.permit({ companyId: w.company.id, projectId: w.projectB.id });
    expect(
      (await w.clientUser.put(`/api/permits/${clientB.id}`, validBody({ project_id: w.projectA.id })))
        .statusCode,
    ).toBe(404);
    const res = await w.otherAdmin.put(
      `/api/permits/${w.permit.id}`,
      validBody({ project_id: w.foreignProject.id }),
    );
    expect(res.statusCode).toBe(404);
    expect(
      (await w.admin.put(`/api/permits/${t.make.uuid()}`, validBody({ project_id: w.projectA.id })))
        .statusCode,
    ).toBe(404);
    const [row] = await t.db.select().from(permits).where(eq(permits.id, w.permit.id));
    expect(row!.projectId).toBe(w.projectA.id);
  });

  it("answers 400 for bad input and another company's project, changing nothing", async () => {
    const w = await setup();
    const bad = await w.admin.put(
      `/api/permits/${w.permit.id}`,
      validBody({ permit_name: "", expiration_date: "2030-02-31" }),
    );
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(["expiration_date", "permit_name"]);
    const foreign = await w.admin.put(
      `/api/permits/${w.permit.id}`,
      validBody({ project_id: w.foreignProject.id, permit_name: "Moved" }),
    );
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().fields.project_id).toBeDefined();
    const [row] = await t.db.select().from(permits).where(eq(permits.id, w.permit.id));
    expect([row!.permitName, row!.projectId]).toEqual(["Building Permit", w.projectA.id]);
    expect(await auditOf(w.permit.id)).toHaveLength(1);
  });

  it("lets a super-admin move a permit to another company with one of its projects", async () => {
    const w = await setup();
    const sa = await superAdmin();
    const wrong = await sa.put(
      `/api/permits/${w.permit.id}`,
      validBody({ company_id: w.other.id, project_id: w.projectA.id }),
    );
    expect(wrong.statusCode).toBe(400);
    const res = await sa.put(
      `/api/permits/${w.permit.id}`,
      validBody({ company_id: w.other.id, project_id: w.foreignProject.id, start_date: "2026-01-01" }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      company_id: w.other.id,
      project_id: w.foreignProject.id,
      client_id: null,
    });
    expect((await auditOf(w.permit.id)).map((a) => a.field)).toContain("company_id");
  });

  it("rolls the update back when the audit write fails", async () => {
    const w = await setup();
    await withFailingAudit(async () => {
      const res = await w.admin.put(
        `/api/permits/${w.permit.id}`,
        validBody({ project_id: w.projectA.id, permit_name: "Never saved" }),
      );
      expect(res.statusCode).toBe(500);
    });
    const [row] = await t.db.select().from(permits).where(eq(permits.id, w.permit.id));
    expect(row!.permitName).toBe("Building Permit");
  });
});

describe("DELETE /api/permits/:id", () => {
  it("lets a company-admin delete, with a delete audit entry that outlives the permit and its comments", async () => {
    const w = await world();
    const permit = await t.make.permit({ companyId: w.company.id, projectId: w.projectA.id });
    await t.db
      .insert(comments)
      .values({ permitId: permit.id, companyId: w.company.id, userName: "x", text: "bye" });
    const res = await w.admin.delete(`/api/permits/${permit.id}`);
    expect(res.statusCode).toBe(204);
    expect(await t.db.select().from(permits).where(eq(permits.id, permit.id))).toHaveLength(0);
    expect(await t.db.select().from(comments).where(eq(comments.permitId, permit.id))).toHaveLength(0);
    const audit = await auditOf(permit.id);
    expect(audit.map((a) => [a.action, a.oldValue, a.userName])).toEqual([
      ["delete", permit.permitNumber, "Ada Admin"],
    ]);
    expect((await w.admin.get(`/api/permits/${permit.id}`)).statusCode).toBe(404);
  });

  it("refuses company-users and client-users (403), answers 404 across companies, and lets a super-admin delete", async () => {
    const w = await world();
    const permit = await t.make.permit({ companyId: w.company.id, projectId: w.projectA.id });
    expect((await w.user.delete(`/api/permits/${permit.id}`)).statusCode).toBe(403);
    expect((await w.clientUser.delete(`/api/permits/${permit.id}`)).statusCode).toBe(403);
    expect((await w.otherAdmin.delete(`/api/permits/${permit.id}`)).statusCode).toBe(404);
    expect((await w.admin.delete(`/api/permits/${t.make.uuid()}`)).statusCode).toBe(404);
    expect((await w.admin.delete("/api/permits/not-an-id")).statusCode).toBe(400);
    expect(await t.db.select().from(permits).where(eq(permits.id, permit.id))).toHaveLength(1);
    expect(await auditOf(permit.id)).toHaveLength(0);
    expect((await (await superAdmin()).delete(`/api/permits/${permit.id}`)).statusCode).toBe(204);
  });

  it("keeps the permit when the audit write fails", async () => {
    const w = await world();
    const permit = await t.make.permit({ companyId: w.company.id, projectId: w.projectA.id });
    await withFailingAudit(async () => {
      expect((await w.admin.delete(`/api/permits/${permit.id}`)).statusCode).toBe(500);
    });
    expect(await t.db.select().from(permits).where(eq(permits.id, permit.id))).toHaveLength(1);
  });
});

describe("GET /api/permits/agencies", () => {
  it("lists the company's distinct non-empty agencies, for roles that edit", async () => {
    const w = await world();
    for (const agency of ["Zoning Board", "City", " City ", "", null])
      await t.make.permit({ companyId: w.company.id, agency });
    await t.make.permit({ companyId: w.other.id, agency: "Foreign Agency" });
    const res = await w.user.get("/api/permits/agencies");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ agencies: ["City", "Zoning Board"] });
    expect((await w.admin.get(`/api/permits/agencies?company_id=${w.other.id}`)).json()).toEqual({
      agencies: ["City", "Zoning Board"],
    });
    expect((await w.clientUser.get("/api/permits/agencies")).statusCode).toBe(403);
    const sa = await superAdmin();
    expect((await sa.get(`/api/permits/agencies?company_id=${w.other.id}`)).json()).toEqual({
      agencies: ["Foreign Agency"],
    });
    expect((await sa.get("/api/permits/agencies")).json()).toEqual({ agencies: [] });
    expect((await sa.get("/api/permits/agencies?company_id=x")).statusCode).toBe(400);
  });
});

describe("GET /api/permits/form-options", () => {
  it("gives the company's projects with their clients, and companies only to a super-admin", async () => {
    const w = await world();
    const res = await w.user.get("/api/permits/form-options");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      company_id: w.company.id,
      projects: [
        {
          id: w.projectA.id,
          name: "Alpha Tower",
          project_number: w.projectA.projectNumber,
          client_id: w.clientA.id,
          client_name: "Acme Client",
        },
        {
          id: w.projectB.id,
          name: "Bridge Works",
          project_number: w.projectB.projectNumber,
          client_id: w.clientB.id,
          client_name: "Beta Client",
        },
      ],
      companies: [],
      staff: expect.any(Array), // permits-lifecycle-fields.test.ts checks who
    });
    expect(
      (await w.admin.get(`/api/permits/form-options?company_id=${w.other.id}`)).json().projects,
    ).toHaveLength(2);
    expect((await w.clientUser.get("/api/permits/form-options")).statusCode).toBe(403);
    const sa = await (await superAdmin()).get(`/api/permits/form-options?company_id=${w.other.id}`);
    expect(sa.json().projects.map((p: { id: string }) => p.id)).toEqual([w.foreignProject.id]);
    expect(sa.json().companies).toEqual(expect.arrayContaining([{ id: w.company.id, name: w.company.name }]));
    // Opened from a project, a super-admin's form learns the company from it.
    const fromProject = await (
      await superAdmin()
    ).get(`/api/permits/form-options?project_id=${w.projectB.id}`);
    expect(fromProject.json()).toMatchObject({
      company_id: w.company.id,
      projects: [{ id: w.projectA.id }, { id: w.projectB.id }],
    });
    const none = await (await superAdmin()).get("/api/permits/form-options");
    expect(none.json()).toMatchObject({ company_id: null, projects: [] });
  });
});

describe("a close date in the permit form", () => {
  it("needs a Final Status, as 'Close Permit' does; clearing the date clears it; nothing saved on a 400", async () => {
    const w = await world();
    const created = await w.admin.post("/api/permits", validBody({ project_id: w.projectA.id }));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const bare = await w.admin.put(
      `/api/permits/${id}`,
      validBody({ project_id: w.projectA.id, close_date: "2026-03-01" }),
    );
    expect(bare.statusCode).toBe(400);
    expect(bare.json().fields.final_status).toBe("Final Status is required when a Close Date is set");
    expect((await w.admin.get(`/api/permits/${id}`)).json().close_date).toBeNull();

    const closed = await w.admin.put(
      `/api/permits/${id}`,
      validBody({ project_id: w.projectA.id, close_date: "2026-03-01", final_status: "Finaled" }),
    );
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({ close_date: "2026-03-01", final_status: "Finaled" });

    const reopened = await w.admin.put(
      `/api/permits/${id}`,
      validBody({ project_id: w.projectA.id, close_date: "", final_status: "Finaled" }),
    );
    expect(reopened.json()).toMatchObject({ close_date: null, final_status: null });
    const bad = await w.admin.put(
      `/api/permits/${id}`,
      validBody({ project_id: w.projectA.id, close_date: "2026-03-01", final_status: "Done" }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.final_status).toMatch(/^Final Status must be one of Finaled/);
  });
});
