import { describe, expect, it } from "vitest";
import type { permits } from "../../db/schema.ts";
import { useTestContext, type ApiClient } from "../../test-support/harness.ts";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";
import type { PermitList, PermitListItem } from "../../../shared/schemas/permit-list.ts";
import type { PermitFilterOptions } from "../../../shared/schemas/permit-options.ts";
import type { PermitSummary } from "../../../shared/schemas/permit-summary.ts";

/**
 * The All Permits list as a work queue (issue 14): tiles as filters, the search box over number,
 * name, agency and project, the status/project/client/agency/expiry filters, Group by: None, and
 * the filters' choices, each within the actor's scope.
 */
const t = useTestContext({ SIGNIN_IP_LIMIT: "100000", API_RATE_LIMIT: "100000" });

const ZONE = "Pacific/Kiritimati"; // UTC+14: "today" there is often not today in UTC
const today = () => todayIn(ZONE);

async function world() {
  const company = await t.make.company({ timeZone: ZONE });
  const other = await t.make.company();
  const clientA = await t.make.client(company.id, "Acme Client");
  const clientB = await t.make.client(company.id, "Beta Client");
  const projectA = await t.make.project({
    companyId: company.id,
    clientId: clientA.id,
    name: "Alpha Tower",
    projectNumber: "AT-77",
  });
  const projectB = await t.make.project({
    companyId: company.id,
    clientId: clientB.id,
    name: "Bridge Works",
  });
  const foreignClient = await t.make.client(other.id, "Foreign Client");
  const foreignProject = await t.make.project({
    companyId: other.id,
    clientId: foreignClient.id,
    name: "Alpha Foreign",
  });
  const mk = (over: Partial<typeof permits.$inferInsert>) =>
    t.make.permit({ companyId: company.id, projectId: projectA.id, ...over });
  return {
    company,
    other,
    clientA,
    clientB,
    projectA,
    projectB,
    foreignProject,
    mk,
    admin: await t.signIn(await t.make.user({ role: "company-admin", companyId: company.id })),
    user: await t.signIn(await t.make.user({ role: "company-user", companyId: company.id })),
    clientUser: await t.signIn(
      await t.make.user({ role: "client-user", companyId: company.id, clientIds: [clientA.id] }),
    ),
    otherAdmin: await t.signIn(await t.make.user({ role: "company-admin", companyId: other.id })),
  };
}

const listOf = async (api: ApiClient, query = "") => {
  const res = await api.get(`/api/permits${query ? `?${query}` : ""}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as PermitList;
};
const rowsOf = (list: PermitList): PermitListItem[] =>
  list.group_by === "none" ? list.items : list.groups.flatMap((g) => g.projects.flatMap((p) => p.permits));
const namesOf = async (api: ApiClient, query = "") =>
  rowsOf(await listOf(api, query))
    .map((p) => p.permit_name)
    .sort();

describe("GET /api/permits as a work queue", () => {
  it("filters by each tile against today in the company's time zone, and the summary counts every tile", async () => {
    const w = await world();
    await w.mk({ permitName: "expiring today", expirationDate: today() });
    await w.mk({ permitName: "expiring in 30", expirationDate: addDays(today(), 30) });
    await w.mk({ permitName: "later", expirationDate: addDays(today(), 31) });
    await w.mk({ permitName: "expired", expirationDate: addDays(today(), -1) });
    await w.mk({ permitName: "in review", permitApplicationDate: "2026-01-05" });
    await w.mk({ permitName: "issued", permitApplicationDate: "2026-01-05", issueDate: "2026-01-09" });
    await w.mk({ permitName: "closed", closeDate: "2026-02-01", startDate: "2026-01-01" });
    await w.mk({ permitName: "n/a expiring", status: "N/A", expirationDate: today() });
    await t.make.permit({ companyId: w.other.id, permitName: "foreign", expirationDate: today() });

    expect(await namesOf(w.admin, "tile=expiring_soon")).toEqual(["expiring in 30", "expiring today"]);
    expect(await namesOf(w.admin, "tile=expired")).toEqual(["expired"]);
    expect(await namesOf(w.admin, "tile=active")).toEqual([
      "expired",
      "expiring in 30",
      "expiring today",
      "later",
    ]);
    expect(await namesOf(w.admin, "tile=in_review")).toEqual(["in review"]);
    expect(await namesOf(w.admin, "tile=closed")).toEqual(["closed"]);
    expect((await listOf(w.admin, "tile=expiring_soon")).total).toBe(2);
    // An empty tile is no tile.
    expect((await listOf(w.admin, "tile=")).total).toBe(7);

    // The tiles are the choice: the summary counts all of them whichever the list shows.
    const summary = (await w.admin.get("/api/permits/summary?tile=expired")).json() as PermitSummary;
    expect(summary).toMatchObject({
      total: 7,
      expiring_soon: 2,
      expired: 1,
      active: 4,
      in_review: 1,
      closed: 1,
    });
    expect((await w.admin.get("/api/permits?tile=soon")).statusCode).toBe(400);
  });

  it("leaves a closed record out of every expiry count and urgency: a released or cancelled bond, a closed permit (issue 25)", async () => {
    const w = await world();
    const soon = addDays(today(), 26);
    const past = addDays(today(), -3);
    const bond = { recordType: "bond", bondAmount: "1000.00", currentAmount: "1000.00" } as const;
    await w.mk({ permitName: "open bond soon", ...bond, bondStatus: "active", expirationDate: soon });
    await w.mk({ permitName: "open bond past", ...bond, bondStatus: "reduced", expirationDate: past });
    await w.mk({
      permitName: "released bond soon",
      ...bond,
      bondStatus: "released",
      currentAmount: "0.00",
      expirationDate: soon,
      closeDate: today(),
      finalStatus: "Completed",
    });
    // A cancelled bond whose close date was cleared since still counts as closed.
    await w.mk({ permitName: "cancelled bond past", ...bond, bondStatus: "cancelled", expirationDate: past });
    await w.mk({
      permitName: "finaled permit soon",
      expirationDate: soon,
      closeDate: today(),
      finalStatus: "Finaled",
    });
    await w.mk({
      permitName: "finaled permit due",
      expirationDate: soon,
      renewalLeadDays: 21,
      closeDate: today(),
      finalStatus: "Finaled",
    });

    expect(await namesOf(w.admin, "tile=expiring_soon")).toEqual(["open bond soon"]);
    expect(await namesOf(w.admin, "tile=expired")).toEqual(["open bond past"]);
    expect(await namesOf(w.admin, "tile=renewal_due")).toEqual([]);
    const summary = (await w.admin.get("/api/permits/summary")).json() as PermitSummary;
    expect(summary).toMatchObject({ total: 6, expiring_soon: 1, expired: 1, renewal_due: 0, closed: 3 });

    // One status per record, and no row highlight once closed.
    const rows = rowsOf(await listOf(w.admin, "group=none&sort=permit_name"));
    expect(rows.map((r) => [r.permit_name, r.display_status, r.urgency])).toEqual([
      ["cancelled bond past", "Cancelled", null],
      ["finaled permit due", "Closed · Finaled", null],
      ["finaled permit soon", "Closed · Finaled", null],
      ["open bond past", "Reduced · past expiry", "expired"],
      ["open bond soon", "Active", "expiring"],
      ["released bond soon", "Released", null],
    ]);
    const detail = async (name: string) => {
      const id = rows.find((r) => r.permit_name === name)!.id;
      return (await w.admin.get(`/api/permits/${id}`)).json();
    };
    expect((await detail("released bond soon")).display_status).toBe("Released");
    expect((await detail("open bond past")).display_status).toBe("Reduced · past expiry");
  });

  it("sees the tile's permits within scope only: a client-user its clients', counts included", async () => {
    const w = await world();
    await w.mk({ permitName: "A soon", expirationDate: addDays(today(), 3) });
    await t.make.permit({
      companyId: w.company.id,
      projectId: w.projectB.id,
      permitName: "B soon",
      expirationDate: addDays(today(), 3),
    });
    await t.make.permit({
      companyId: w.other.id,
      permitName: "foreign soon",
      expirationDate: addDays(today(), 3),
    });
    expect(await namesOf(w.clientUser, "tile=expiring_soon")).toEqual(["A soon"]);
    expect((await w.clientUser.get("/api/permits/summary")).json().expiring_soon).toBe(1);
    expect(await namesOf(w.admin, "tile=expiring_soon")).toEqual(["A soon", "B soon"]);
    expect(await namesOf(w.otherAdmin, "tile=expiring_soon")).toEqual(["foreign soon"]);
    // A client filter naming a client the client-user may not see finds nothing, not the client's permits.
    expect(await namesOf(w.clientUser, `client_id=${w.clientB.id}`)).toEqual([]);
  });

  it("searches permit number, name, agency and project name and number, case-insensitively", async () => {
    const w = await world();
    await w.mk({ permitName: "Grading", permitNumber: "PRM-10037", agency: "County" });
    await w.mk({ permitName: "Electrical", permitNumber: "E-1", agency: "Denver Water" });
    await t.make.permit({
      companyId: w.company.id,
      projectId: w.projectB.id,
      permitName: "Bridge deck",
      permitNumber: "B-9",
      agency: "State",
    });
    await t.make.permit({
      companyId: w.other.id,
      projectId: w.foreignProject.id,
      permitName: "Foreign alpha",
    });

    expect(await namesOf(w.admin, "q=prm-10037")).toEqual(["Grading"]);
    expect(await namesOf(w.admin, "q=10037")).toEqual(["Grading"]);
    expect(await namesOf(w.admin, "q=water")).toEqual(["Electrical"]);
    expect(await namesOf(w.admin, "q=deck")).toEqual(["Bridge deck"]);
    // Project name and number find every permit of the project, never another company's.
    expect(await namesOf(w.admin, "q=alpha")).toEqual(["Electrical", "Grading"]);
    expect(await namesOf(w.admin, "q=AT-77")).toEqual(["Electrical", "Grading"]);
    expect(await namesOf(w.otherAdmin, "q=alpha")).toEqual(["Foreign alpha"]);
    // A client-user searching another client's project name finds nothing of it.
    expect(await namesOf(w.clientUser, "q=bridge")).toEqual([]);
  });

  it("filters by status, project, client, agency and an expiration range", async () => {
    const w = await world();
    await w.mk({ permitName: "required early", expirationDate: "2030-01-10", agency: "City" });
    await w.mk({ permitName: "required late", expirationDate: "2030-03-10", agency: " County " });
    await w.mk({ permitName: "pending", status: "Pending", expirationDate: "2030-01-20", agency: "City" });
    await w.mk({ permitName: "waiting", status: "In Waiting", agency: "City" });
    await t.make.permit({
      companyId: w.company.id,
      projectId: w.projectB.id,
      permitName: "bridge",
      expirationDate: "2030-02-01",
      agency: "City",
    });

    // A status replaces the Show Non-Required rule.
    expect(await namesOf(w.admin, "status=Pending")).toEqual(["pending"]);
    expect(await namesOf(w.admin, "status=In%20Waiting")).toEqual(["waiting"]);
    expect((await w.admin.get("/api/permits?status=N%2FA")).statusCode).toBe(400);
    expect(await namesOf(w.admin, `project_id=${w.projectB.id}`)).toEqual(["bridge"]);
    expect(await namesOf(w.admin, `client_id=${w.clientA.id}`)).toEqual(["required early", "required late"]);
    expect(await namesOf(w.admin, "agency=County")).toEqual(["required late"]);
    expect(await namesOf(w.admin, "expires_from=2030-01-10&expires_to=2030-02-01")).toEqual([
      "bridge",
      "required early",
    ]);
    expect(await namesOf(w.admin, "expires_from=2030-02-02")).toEqual(["required late"]);
    expect(await namesOf(w.admin, "show_non_required=1&expires_to=2030-01-31&agency=City")).toEqual([
      "pending",
      "required early",
    ]);

    const bad = await w.admin.get("/api/permits?expires_from=2030-02-01&expires_to=2030-01-01");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ expires_to: "Expires to cannot be before Expires from" });
    const badDate = await w.admin.get("/api/permits?expires_from=2030-02-30&project_id=x");
    expect(badDate.statusCode).toBe(400);
    expect(Object.keys(badDate.json().fields).sort()).toEqual(["expires_from", "project_id"]);
  });

  it("with Group by: None sorts the whole company as one list, across clients and projects and pages", async () => {
    const w = await world();
    const dates = [12, 3, 40, 7, 25, 1];
    for (const [i, days] of dates.entries()) {
      await t.make.permit({
        companyId: w.company.id,
        projectId: i % 2 ? w.projectA.id : w.projectB.id,
        permitName: `p${days}`,
        expirationDate: addDays(today(), days),
      });
    }
    await t.make.permit({
      companyId: w.company.id,
      permitName: "no project",
      expirationDate: addDays(today(), 5),
    });

    const page1 = await listOf(w.admin, "group=none&sort=expiration_date&page_size=4");
    expect(page1.group_by).toBe("none");
    expect(page1.groups).toEqual([]);
    expect(page1.items.map((p) => p.permit_name)).toEqual(["p1", "p3", "no project", "p7"]);
    const page2 = await listOf(w.admin, "group=none&sort=expiration_date&page_size=4&page=2");
    expect(page2.items.map((p) => p.permit_name)).toEqual(["p12", "p25", "p40"]);
    expect(page2.total).toBe(7);
    // Each flat row names its project and client.
    expect(page1.items[0]).toMatchObject({
      project: { id: w.projectA.id, name: "Alpha Tower", project_number: "AT-77" },
      client: { id: w.clientA.id, name: "Acme Client" },
    });
    expect(page1.items[2]).toMatchObject({ project: null, client: null });
    const desc = await listOf(w.admin, "group=none&sort=expiration_date&dir=desc&page_size=3");
    expect(desc.items.map((p) => p.permit_name)).toEqual(["p40", "p25", "p12"]);

    // Grouped (the default) holds the same page in groups and no flat items.
    const grouped = await listOf(w.admin, "sort=expiration_date&page_size=4");
    expect(grouped.group_by).toBe("client_project");
    expect(grouped.items).toEqual([]);
    expect(
      rowsOf(grouped)
        .map((p) => p.permit_name)
        .sort(),
    ).toEqual(["no project", "p1", "p3", "p7"]);
    expect((await w.admin.get("/api/permits?group=project")).statusCode).toBe(400);
  });

  it("applies the same filters to the export", async () => {
    const w = await world();
    await w.mk({ permitName: "soon", permitNumber: "S-1", expirationDate: addDays(today(), 2) });
    await w.mk({ permitName: "later", permitNumber: "L-1", expirationDate: addDays(today(), 200) });
    const res = await w.admin.get("/api/permits/export?tile=expiring_soon&group=none");
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("S-1");
    expect(res.body).not.toContain("L-1");
  });
});

describe("GET /api/permits/filter-options", () => {
  it("requires sign-in", async () => {
    expect((await t.anonymous.get("/api/permits/filter-options")).statusCode).toBe(401);
  });

  it("offers the projects, clients and agencies within the actor's scope", async () => {
    const w = await world();
    await w.mk({ agency: " City " });
    await w.mk({ agency: "County" });
    await w.mk({ agency: "Only N/A", status: "N/A" });
    await t.make.permit({ companyId: w.company.id, projectId: w.projectB.id, agency: "State" });
    await t.make.permit({ companyId: w.other.id, projectId: w.foreignProject.id, agency: "Foreign Agency" });

    const admin = (await w.admin.get("/api/permits/filter-options")).json() as PermitFilterOptions;
    expect(admin.projects.map((p) => p.name)).toEqual(["Alpha Tower", "Bridge Works"]);
    expect(admin.projects[0]).toEqual({
      id: w.projectA.id,
      name: "Alpha Tower",
      project_number: "AT-77",
      client_id: w.clientA.id,
      company_name: null,
    });
    expect(admin.clients.map((c) => c.name)).toEqual(["Acme Client", "Beta Client"]);
    expect(admin.agencies).toEqual(["City", "County", "State"]);

    const client = (await w.clientUser.get("/api/permits/filter-options")).json() as PermitFilterOptions;
    expect(client.projects.map((p) => p.name)).toEqual(["Alpha Tower"]);
    expect(client.clients.map((c) => c.name)).toEqual(["Acme Client"]);
    expect(client.agencies).toEqual(["City", "County"]);

    const user = (await w.user.get("/api/permits/filter-options")).json() as PermitFilterOptions;
    expect(user.clients.map((c) => c.name)).toEqual(["Acme Client", "Beta Client"]);

    const other = (await w.otherAdmin.get("/api/permits/filter-options")).json() as PermitFilterOptions;
    expect(other).toMatchObject({
      projects: [expect.objectContaining({ name: "Alpha Foreign" })],
      clients: [expect.objectContaining({ name: "Foreign Client" })],
      agencies: ["Foreign Agency"],
    });

    const superAdmin = await t.signIn(await t.make.user({ role: "super-admin" }));
    const all = (await superAdmin.get("/api/permits/filter-options")).json() as PermitFilterOptions;
    expect(all.projects.find((p) => p.id === w.foreignProject.id)?.company_name).toBe(w.other.name);
    expect(all.projects.find((p) => p.id === w.projectA.id)?.company_name).toBe(w.company.name);
  });
});
