import { and, eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { auditEvents, clients, permitAudit, permits, projects } from "../../db/schema.ts";
import { useTestContext, type ApiClient } from "../../test-support/harness.ts";
import { freshCompany, useWorld } from "../../test-support/world.ts";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";
import type { Project } from "../../../shared/schemas/projects.ts";

const t = useTestContext();

const TZ = "Pacific/Kiritimati"; // UTC+14: "today" here is rarely the server's UTC date
const w = useWorld(t, { company: { timeZone: TZ }, otherAdmin: true });

const permitsOf = (projectId: string) =>
  t.db.select().from(permits).where(eq(permits.projectId, projectId)).orderBy(permits.permitNumber);
const count = async (table: typeof projects | typeof clients | typeof permits | typeof permitAudit) =>
  (await t.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]!.n;

describe("GET /api/projects", () => {
  it("requires sign-in", async () => {
    expect((await t.anonymous.get("/api/projects")).statusCode).toBe(401);
  });

  it("lists a company-admin's own company only, with client, company, permit count and what it may do", async () => {
    const { company, admin } = await freshCompany(t);
    const client = await t.make.client(company.id, "City of Aurora");
    const project = await t.make.project({
      companyId: company.id,
      clientId: client.id,
      name: "Civic Center",
      projectNumber: "P-1",
    });
    await t.make.permit({ companyId: company.id, projectId: project.id });
    await t.make.permit({ companyId: company.id, projectId: project.id });
    await t.make.project({ companyId: w.otherCompanyId, name: "Foreign" });
    const res = await admin.get(`/api/projects?company_id=${w.otherCompanyId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().projects).toEqual([
      {
        id: project.id,
        name: "Civic Center",
        project_number: "P-1",
        status: "Not Started",
        client_id: client.id,
        client_name: "City of Aurora",
        company_id: company.id,
        company_name: company.name,
        start_date: null,
        permit_count: 2,
        can: { edit: true, delete: true, createPermit: true },
      },
    ]);
  });

  it("lets a company-user read its company's projects without managing them", async () => {
    await t.make.project({ companyId: w.companyId });
    const list = (await w.user.get("/api/projects")).json().projects as Project[];
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((p) => p.company_id === w.companyId)).toBe(true);
    expect(list[0]!.can).toEqual({ edit: false, delete: false, createPermit: true });
  });

  it("shows a client-user only its clients' projects, read-only", async () => {
    const seen = await t.make.project({ companyId: w.companyId, clientId: w.seenClientId });
    const hidden = await t.make.project({
      companyId: w.companyId,
      clientId: (await t.make.client(w.companyId)).id,
    });
    const list = (await w.clientUser.get("/api/projects")).json().projects as Project[];
    const ids = list.map((p) => p.id);
    expect(ids).toContain(seen.id);
    expect(ids).not.toContain(hidden.id);
    expect(list.every((p) => p.client_id === w.seenClientId)).toBe(true);
    expect(list[0]!.can).toEqual({ edit: false, delete: false, createPermit: false });
  });

  it("gives a super-admin every company, or one with company_id", async () => {
    await t.make.project({ companyId: w.otherCompanyId });
    const all = (await w.superAdmin.get("/api/projects")).json().projects as Project[];
    expect(
      all.some((p) => p.company_id === w.companyId) && all.some((p) => p.company_id === w.otherCompanyId),
    ).toBe(true);
    const one = (await w.superAdmin.get(`/api/projects?company_id=${w.otherCompanyId}`)).json()
      .projects as Project[];
    expect(one.length).toBeGreaterThan(0);
    expect(one.every((p) => p.company_id === w.otherCompanyId)).toBe(true);
  });

  it("sorts on the server by name, project_number (numberless last) and status, both ways", async () => {
    const { company, admin } = await freshCompany(t);
    await t.make.project({ companyId: company.id, name: "bravo", projectNumber: "B-2", status: "On Hold" });
    await t.make.project({ companyId: company.id, name: "Alpha", projectNumber: "C-3", status: "Completed" });
    await t.make.project({
      companyId: company.id,
      name: "Charlie",
      projectNumber: null,
      status: "In Progress",
    });
    const names = async (q: string) =>
      ((await admin.get(`/api/projects?${q}`)).json().projects as Project[]).map((p) => p.name);
    expect(await names("")).toEqual(["Alpha", "bravo", "Charlie"]);
    expect(await names("sort=name&dir=desc")).toEqual(["Charlie", "bravo", "Alpha"]);
    expect(await names("sort=project_number")).toEqual(["bravo", "Alpha", "Charlie"]);
    expect(await names("sort=project_number&dir=desc")).toEqual(["Alpha", "bravo", "Charlie"]);
    expect(await names("sort=status")).toEqual(["Alpha", "Charlie", "bravo"]);
    expect(await names("sort=status&dir=desc")).toEqual(["bravo", "Charlie", "Alpha"]);
  });

  it("shows unknown stored statuses as In Progress and the old 'Complete' as Completed", async () => {
    const { company, admin } = await freshCompany(t);
    await t.make.project({ companyId: company.id, name: "A", status: "Complete" });
    await t.make.project({ companyId: company.id, name: "B", status: "Whatever" });
    const list = (await admin.get("/api/projects")).json().projects as Project[];
    expect(list.map((p) => p.status)).toEqual(["Completed", "In Progress"]);
  });

  it("answers 400 for an unknown sort or direction", async () => {
    const res = await w.admin.get("/api/projects?sort=client&dir=up");
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields)).toEqual(expect.arrayContaining(["sort", "dir"]));
  });
});

describe("GET /api/projects/:id", () => {
  it("requires sign-in and hides another company's project and a client-user's other clients' (404)", async () => {
    const mine = await t.make.project({ companyId: w.companyId });
    const foreign = await t.make.project({ companyId: w.otherCompanyId });
    expect((await t.anonymous.get(`/api/projects/${mine.id}`)).statusCode).toBe(401);
    expect((await w.admin.get(`/api/projects/${foreign.id}`)).statusCode).toBe(404);
    expect((await w.user.get(`/api/projects/${foreign.id}`)).statusCode).toBe(404);
    expect((await w.clientUser.get(`/api/projects/${mine.id}`)).statusCode).toBe(404);
    expect((await w.admin.get(`/api/projects/${t.make.uuid()}`)).json().message).toBe("Project not found.");
    expect((await w.admin.get("/api/projects/nope")).statusCode).toBe(400);
    expect((await w.admin.get(`/api/projects/${mine.id}`)).json().project.id).toBe(mine.id);
    expect((await w.user.get(`/api/projects/${mine.id}`)).json().project.id).toBe(mine.id);
    expect((await w.superAdmin.get(`/api/projects/${foreign.id}`)).json().project.id).toBe(foreign.id);
  });
});

describe("POST /api/projects", () => {
  it("requires sign-in and refuses company-users and client-users, creating nothing", async () => {
    const before = await count(projects);
    expect((await t.anonymous.post("/api/projects", { name: "X" })).statusCode).toBe(401);
    expect((await w.user.post("/api/projects", { name: "X" })).statusCode).toBe(403);
    expect((await w.clientUser.post("/api/projects", { name: "X" })).statusCode).toBe(403);
    expect(await count(projects)).toBe(before);
  });

  it("creates one permit per active template, numbered, with the template's name, agency and status, today in the company's zone", async () => {
    const { company, admin } = await freshCompany(t, { timeZone: TZ });
    await t.make.template({
      companyId: company.id,
      name: "Grading Permit",
      agency: "County",
      status: "Required",
    });
    await t.make.template({
      companyId: company.id,
      name: "building permit",
      agency: "City",
      status: "Required",
    });
    await t.make.template({ companyId: company.id, name: "Fire Sprinkler", agency: null, status: "N/A" });
    await t.make.template({ companyId: company.id, name: "Retired", active: false });
    await t.make.template({ companyId: w.otherCompanyId, name: "Other Company's" });

    const res = await admin.post("/api/projects", {
      name: "  Clinic Expansion ",
      project_number: "SR-2026-101",
      client_name: "Front Range Medical",
    });
    expect(res.statusCode).toBe(201);
    const project = res.json().project as Project;
    expect(project).toMatchObject({
      name: "Clinic Expansion",
      project_number: "SR-2026-101",
      status: "Not Started",
      client_name: "Front Range Medical",
      company_id: company.id,
      permit_count: 3,
    });
    const rows = await permitsOf(project.id);
    expect(
      rows.map((p) => ({
        number: p.permitNumber,
        name: p.permitName,
        agency: p.agency,
        status: p.status,
        type: p.recordType,
        start: p.startDate,
        client: p.clientId,
        company: p.companyId,
      })),
    ).toEqual([
      {
        number: "SR-2026-101-AUTO-1",
        name: "building permit",
        agency: "City",
        status: "Required",
        type: "permit",
        start: todayIn(TZ),
        client: project.client_id,
        company: company.id,
      },
      {
        number: "SR-2026-101-AUTO-2",
        name: "Fire Sprinkler",
        agency: null,
        status: "N/A",
        type: "permit",
        start: todayIn(TZ),
        client: project.client_id,
        company: company.id,
      },
      {
        number: "SR-2026-101-AUTO-3",
        name: "Grading Permit",
        agency: "County",
        status: "Required",
        type: "permit",
        start: todayIn(TZ),
        client: project.client_id,
        company: company.id,
      },
    ]);
    for (const row of rows) {
      const audit = await t.db.select().from(permitAudit).where(eq(permitAudit.permitId, row.id));
      expect(audit).toMatchObject([{ action: "create", companyId: company.id, newValue: row.permitNumber }]);
    }
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, project.id));
    expect(events).toMatchObject([{ action: "create", entityType: "project" }]);
  });

  it("gives template permits the template's expiry rule, days and lead time (issue 11)", async () => {
    const { company, admin } = await freshCompany(t, { timeZone: TZ });
    await t.make.template({
      companyId: company.id,
      name: "Building",
      expiryRule: "after_inspection",
      expiryDays: 180,
      renewalLeadDays: 30,
    });
    await t.make.template({ companyId: company.id, name: "Grading" });
    const res = await admin.post("/api/projects", {
      name: "Depot",
      project_number: "D-1",
      client_name: null,
    });
    expect(res.statusCode).toBe(201);
    const rows = await permitsOf((res.json().project as Project).id);
    expect(rows.map((p) => [p.permitName, p.expiryRule, p.expiryDays, p.renewalLeadDays, p.termNo])).toEqual([
      ["Building", "after_inspection", 180, 30, 1],
      ["Grading", "fixed", null, null, 1],
    ]);
  });

  it("numbers template permits PRJ-AUTO-n when the project has no number, and creates none without templates", async () => {
    const { company, admin } = await freshCompany(t);
    const bare = (await admin.post("/api/projects", { name: "No Templates Yet" })).json().project as Project;
    expect(bare.permit_count).toBe(0);
    await t.make.template({ companyId: company.id, name: "Only One" });
    const res = await admin.post("/api/projects", { name: "Numberless", project_number: "  " });
    const project = res.json().project as Project;
    expect(project.project_number).toBeNull();
    expect((await permitsOf(project.id)).map((p) => p.permitNumber)).toEqual(["PRJ-AUTO-1"]);
  });

  it("matches a typed client case-insensitively, or creates it in the same company", async () => {
    const { company, admin } = await freshCompany(t);
    const existing = await t.make.client(company.id, "Peak Logistics");
    await t.make.client(w.otherCompanyId, "Brand New Client"); // same name elsewhere: not reused
    const matched = (await admin.post("/api/projects", { name: "A", client_name: " PEAK logistics " })).json()
      .project;
    expect(matched.client_id).toBe(existing.id);
    expect(matched.client_name).toBe("Peak Logistics");
    const created = (await admin.post("/api/projects", { name: "B", client_name: "Brand New Client" })).json()
      .project;
    const [client] = await t.db.select().from(clients).where(eq(clients.id, created.client_id));
    expect(client).toMatchObject({ name: "Brand New Client", companyId: company.id });
    expect(await t.db.select().from(clients).where(eq(clients.companyId, company.id))).toHaveLength(2);
  });

  it("creates a new client once when two projects name it at the same time", async () => {
    const { company, admin } = await freshCompany(t);
    const results = await Promise.all(
      ["One", "Two", "Three"].map((name) =>
        admin.post("/api/projects", { name, client_name: "Racing Client" }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    expect(new Set(results.map((r) => r.json().project.client_id)).size).toBe(1);
    expect(await t.db.select().from(clients).where(eq(clients.companyId, company.id))).toHaveLength(1);
  });

  it("takes the status given, and refuses an unknown one", async () => {
    const created = (
      await w.admin.post("/api/projects", { name: "On hold from day one", status: "On Hold" })
    ).json();
    expect(created.project.status).toBe("On Hold");
    const bad = await w.admin.post("/api/projects", { name: "X", status: "Complete" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.status).toBe("Choose a valid project status");
  });

  it("answers 400 with field messages for bad input, creating nothing", async () => {
    const before = [await count(projects), await count(clients)];
    const res = await w.admin.post("/api/projects", {
      name: "  ",
      client_name: "Never Created",
      start_date: "2025-02-30",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toMatchObject({
      name: "Project Name is required",
      start_date: expect.any(String),
    });
    expect((await w.admin.post("/api/projects", { name: "x".repeat(201) })).statusCode).toBe(400);
    expect([await count(projects), await count(clients)]).toEqual(before);
  });

  it("writes to a company-admin's own company whatever company_id says; a super-admin must name an existing one", async () => {
    const own = (await w.admin.post("/api/projects", { name: "Mine", company_id: w.otherCompanyId })).json()
      .project;
    expect(own.company_id).toBe(w.companyId);
    const missing = await w.superAdmin.post("/api/projects", { name: "Where?" });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields.company_id).toBe("Company ID is missing. Please select a company.");
    expect(
      (await w.superAdmin.post("/api/projects", { name: "X", company_id: t.make.uuid() })).statusCode,
    ).toBe(400);
    const named = await w.superAdmin.post("/api/projects", { name: "Theirs", company_id: w.otherCompanyId });
    expect(named.statusCode).toBe(201);
    expect(named.json().project.company_id).toBe(w.otherCompanyId);
  });

  describe("a failure halfway leaves nothing behind", () => {
    afterEach(async () => {
      await t.database.exec(`
        drop trigger if exists test_fail on permits;
        drop trigger if exists test_fail on projects;
        drop function if exists test_fail();`);
    });
    const failOn = (table: "permits" | "projects") =>
      t.database.exec(`
        create function test_fail() returns trigger as $$
        begin raise exception 'test failure'; end; $$ language plpgsql;
        create trigger test_fail before insert on ${table} for each row execute function test_fail();`);

    it("when a template permit cannot be inserted: no client, project, permit or audit", async () => {
      const { company, admin } = await freshCompany(t);
      await t.make.template({ companyId: company.id, name: "Doomed" });
      const before = [
        await count(projects),
        await count(clients),
        await count(permits),
        await count(permitAudit),
      ];
      await failOn("permits");
      const res = await admin.post("/api/projects", { name: "Half Done", client_name: "Half Client" });
      expect(res.statusCode).toBe(500);
      expect(res.json().message).toBe("Something went wrong. Please try again.");
      expect([
        await count(projects),
        await count(clients),
        await count(permits),
        await count(permitAudit),
      ]).toEqual(before);
    });

    it("when the project cannot be inserted: the new client is not kept", async () => {
      const { company, admin } = await freshCompany(t);
      await failOn("projects");
      const res = await admin.post("/api/projects", { name: "Never", client_name: "Orphan Client" });
      expect(res.statusCode).toBe(500);
      expect(await t.db.select().from(clients).where(eq(clients.companyId, company.id))).toHaveLength(0);
    });
  });
});

describe("PUT /api/projects/:id", () => {
  it("requires sign-in, hides other companies (404) and refuses non-managers (403), changing nothing", async () => {
    const mine = await t.make.project({
      companyId: w.companyId,
      clientId: w.seenClientId,
      name: "Unchanged",
    });
    const foreign = await t.make.project({ companyId: w.otherCompanyId, name: "Foreign" });
    const body = { name: "Changed", project_number: null, client_name: null };
    expect((await t.anonymous.put(`/api/projects/${mine.id}`, body)).statusCode).toBe(401);
    expect((await w.admin.put(`/api/projects/${foreign.id}`, body)).statusCode).toBe(404);
    expect((await w.user.put(`/api/projects/${mine.id}`, body)).statusCode).toBe(403);
    expect((await w.clientUser.put(`/api/projects/${mine.id}`, body)).statusCode).toBe(403);
    const [a] = await t.db.select().from(projects).where(eq(projects.id, mine.id));
    const [b] = await t.db.select().from(projects).where(eq(projects.id, foreign.id));
    expect([a!.name, b!.name]).toEqual(["Unchanged", "Foreign"]);
  });

  it("updates the fields; a new client is created and copied onto the project's permits with an audit entry each", async () => {
    const { company, admin } = await freshCompany(t);
    const oldClient = await t.make.client(company.id, "Old Client");
    const project = await t.make.project({
      companyId: company.id,
      clientId: oldClient.id,
      status: "On Hold",
    });
    const p1 = await t.make.permit({ companyId: company.id, projectId: project.id });
    const p2 = await t.make.permit({ companyId: company.id, projectId: project.id });
    const unrelated = await t.make.permit({ companyId: company.id, clientId: oldClient.id });
    const oldViewer = await t.signIn(
      await t.make.user({ role: "client-user", companyId: company.id, clientIds: [oldClient.id] }),
    );

    const res = await admin.put(`/api/projects/${project.id}`, {
      name: "Renamed",
      project_number: "N-9",
      client_name: "New Client",
    });
    expect(res.statusCode).toBe(200);
    const updated = res.json().project as Project;
    expect(updated).toMatchObject({
      name: "Renamed",
      project_number: "N-9",
      client_name: "New Client",
      status: "On Hold",
    });
    for (const p of [p1, p2]) {
      const [row] = await t.db.select().from(permits).where(eq(permits.id, p.id));
      expect(row!.clientId).toBe(updated.client_id);
      const audit = await t.db
        .select()
        .from(permitAudit)
        .where(and(eq(permitAudit.permitId, p.id), eq(permitAudit.field, "client")));
      expect(audit).toMatchObject([{ action: "update", oldValue: "Old Client", newValue: "New Client" }]);
    }
    const [other] = await t.db.select().from(permits).where(eq(permits.id, unrelated.id));
    expect(other!.clientId).toBe(oldClient.id);
    // the old client's user no longer sees the project; the new client's does
    expect((await oldViewer.get(`/api/projects/${project.id}`)).statusCode).toBe(404);
    const newViewer = await t.signIn(
      await t.make.user({ role: "client-user", companyId: company.id, clientIds: [updated.client_id!] }),
    );
    expect((await newViewer.get(`/api/projects/${project.id}/dashboard`)).json().permits).toHaveLength(2);
  });

  it("detaches the client from the project and its permits when the client is cleared", async () => {
    const { company, admin } = await freshCompany(t);
    const client = await t.make.client(company.id);
    const project = await t.make.project({ companyId: company.id, clientId: client.id });
    const permit = await t.make.permit({ companyId: company.id, projectId: project.id });
    const res = await admin.put(`/api/projects/${project.id}`, {
      name: project.name,
      project_number: null,
      client_name: "",
    });
    expect(res.json().project.client_id).toBeNull();
    const [row] = await t.db.select().from(permits).where(eq(permits.id, permit.id));
    expect(row!.clientId).toBeNull();
  });

  it("keeps the permits' client when the same client is typed in another case", async () => {
    const { company, admin } = await freshCompany(t);
    const client = await t.make.client(company.id, "Same Client");
    const project = await t.make.project({ companyId: company.id, clientId: client.id });
    const permit = await t.make.permit({ companyId: company.id, projectId: project.id });
    await admin.put(`/api/projects/${project.id}`, {
      name: "x",
      project_number: "1",
      client_name: "same client",
    });
    expect(await t.db.select().from(permitAudit).where(eq(permitAudit.permitId, permit.id))).toHaveLength(0);
  });

  it("answers 400 for bad input, changing nothing", async () => {
    const project = await t.make.project({ companyId: w.companyId, name: "Stays" });
    const res = await w.admin.put(`/api/projects/${project.id}`, {
      name: "",
      project_number: null,
      client_name: null,
      status: "Done",
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields)).toEqual(expect.arrayContaining(["name", "status"]));
    const [row] = await t.db.select().from(projects).where(eq(projects.id, project.id));
    expect(row!.name).toBe("Stays");
  });
});

describe("PATCH /api/projects/:id/status", () => {
  it("requires sign-in, hides other companies (404), refuses non-managers (403)", async () => {
    const mine = await t.make.project({ companyId: w.companyId, clientId: w.seenClientId });
    const foreign = await t.make.project({ companyId: w.otherCompanyId });
    expect(
      (await t.anonymous.patch(`/api/projects/${mine.id}/status`, { status: "On Hold" })).statusCode,
    ).toBe(401);
    expect(
      (await w.admin.patch(`/api/projects/${foreign.id}/status`, { status: "On Hold" })).statusCode,
    ).toBe(404);
    expect((await w.user.patch(`/api/projects/${mine.id}/status`, { status: "On Hold" })).statusCode).toBe(
      403,
    );
    expect(
      (await w.clientUser.patch(`/api/projects/${mine.id}/status`, { status: "On Hold" })).statusCode,
    ).toBe(403);
    const [row] = await t.db.select().from(projects).where(eq(projects.id, foreign.id));
    expect(row!.status).toBe("Not Started");
  });

  it("saves a status of the one set (admins, super-admin in any company) and refuses others", async () => {
    const mine = await t.make.project({ companyId: w.companyId });
    const foreign = await t.make.project({ companyId: w.otherCompanyId });
    const res = await w.admin.patch(`/api/projects/${mine.id}/status`, { status: "Under Construction" });
    expect(res.statusCode).toBe(200);
    expect(res.json().project.status).toBe("Under Construction");
    expect(
      (await w.superAdmin.patch(`/api/projects/${foreign.id}/status`, { status: "Completed" })).json().project
        .status,
    ).toBe("Completed");
    const bad = await w.admin.patch(`/api/projects/${mine.id}/status`, { status: "Complete" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.status).toBe("Choose a valid project status");
    const [row] = await t.db.select().from(projects).where(eq(projects.id, mine.id));
    expect(row!.status).toBe("Under Construction");
  });
});

describe("DELETE /api/projects/:id", () => {
  it("requires sign-in, hides other companies (404), refuses non-managers (403)", async () => {
    const mine = await t.make.project({ companyId: w.companyId, clientId: w.seenClientId });
    const foreign = await t.make.project({ companyId: w.otherCompanyId });
    expect((await t.anonymous.delete(`/api/projects/${mine.id}`)).statusCode).toBe(401);
    expect((await w.admin.delete(`/api/projects/${foreign.id}`)).statusCode).toBe(404);
    expect((await w.user.delete(`/api/projects/${mine.id}`)).statusCode).toBe(403);
    expect((await w.clientUser.delete(`/api/projects/${mine.id}`)).statusCode).toBe(403);
    expect(await t.db.select().from(projects).where(eq(projects.id, foreign.id))).toHaveLength(1);
    expect(await t.db.select().from(projects).where(eq(projects.id, mine.id))).toHaveLength(1);
  });

  it("deletes the project with its permits, leaving a delete entry in each permit's audit trail", async () => {
    const project = await t.make.project({ companyId: w.companyId, name: "Going Away" });
    const permit = await t.make.permit({ companyId: w.companyId, projectId: project.id });
    expect((await w.admin.delete(`/api/projects/${project.id}`)).statusCode).toBe(204);
    expect(await t.db.select().from(projects).where(eq(projects.id, project.id))).toHaveLength(0);
    expect(await t.db.select().from(permits).where(eq(permits.id, permit.id))).toHaveLength(0);
    const audit = await t.db.select().from(permitAudit).where(eq(permitAudit.permitId, permit.id));
    expect(audit).toMatchObject([
      { action: "delete", oldValue: permit.permitNumber, newValue: "deleted with project Going Away" },
    ]);
    const foreign = await t.make.project({ companyId: w.otherCompanyId });
    expect((await w.superAdmin.delete(`/api/projects/${foreign.id}`)).statusCode).toBe(204);
  });
});

describe("GET /api/projects/:id/dashboard", () => {
  it("requires sign-in and answers 404 for another company's project or a client-user's other clients'", async () => {
    const mine = await t.make.project({ companyId: w.companyId });
    const foreign = await t.make.project({ companyId: w.otherCompanyId });
    expect((await t.anonymous.get(`/api/projects/${mine.id}/dashboard`)).statusCode).toBe(401);
    expect((await w.admin.get(`/api/projects/${foreign.id}/dashboard`)).statusCode).toBe(404);
    expect((await w.user.get(`/api/projects/${foreign.id}/dashboard`)).statusCode).toBe(404);
    expect((await w.clientUser.get(`/api/projects/${mine.id}/dashboard`)).statusCode).toBe(404);
    expect((await w.otherAdmin.get(`/api/projects/${mine.id}/dashboard`)).statusCode).toBe(404);
  });

  it("is readable by every role that can see the project, with what each may do", async () => {
    const project = await t.make.project({ companyId: w.companyId, clientId: w.seenClientId });
    const can = async (api: ApiClient) =>
      (await api.get(`/api/projects/${project.id}/dashboard`)).json().project.can;
    expect(await can(w.superAdmin)).toEqual({ edit: true, delete: true, createPermit: true });
    expect(await can(w.admin)).toEqual({ edit: true, delete: true, createPermit: true });
    expect(await can(w.user)).toEqual({ edit: false, delete: false, createPermit: true });
    expect(await can(w.clientUser)).toEqual({ edit: false, delete: false, createPermit: false });
  });

  it("counts the project categories, lists N/A last, leaves archived out and summarises expirations", async () => {
    const today = todayIn(TZ);
    const project = await t.make.project({ companyId: w.companyId, startDate: "2025-03-01" });
    const make = (name: string, fields: Partial<typeof permits.$inferInsert>) =>
      t.make.permit({ companyId: w.companyId, projectId: project.id, permitName: name, ...fields });
    await make("Not Applicable", { status: "N/A", startDate: today });
    await make("Only Started", { startDate: today });
    await make("Applied", { startDate: today, permitApplicationDate: today });
    await make("Expiring", {
      startDate: today,
      permitApplicationDate: today,
      expirationDate: addDays(today, 10),
    });
    await make("Later", { startDate: today, expirationDate: addDays(today, 90) });
    await make("Expired", { startDate: today, expirationDate: addDays(today, -1) });
    await make("No Start", { expirationDate: addDays(today, 5) }); // Active: the list's rule (issue 25)
    await make("Issued Undated", { permitApplicationDate: today, issueDate: today }); // no category
    await make("Archived", { startDate: today, archived: true });

    const res = await w.user.get(`/api/projects/${project.id}/dashboard`);
    expect(res.statusCode).toBe(200);
    const d = res.json();
    expect(d.today).toBe(today);
    expect(d.start_date).toBe("2025-03-01");
    expect(d.categories).toEqual([
      { category: "In Progress", count: 1 },
      { category: "In Review", count: 1 },
      { category: "Active", count: 4 },
    ]);
    expect(d.summary).toEqual({
      total: 8,
      not_applicable: 1,
      uncategorized: 1,
      expired: 1,
      expiring_soon: 2,
      next_expiration: addDays(today, 5),
      archived: 1,
    });
    const names = d.permits.map((p: { permit_name: string }) => p.permit_name);
    expect(names).toHaveLength(8);
    expect(names.at(-1)).toBe("Not Applicable");
    expect(names).not.toContain("Archived");
    const expired = d.permits.find((p: { permit_name: string }) => p.permit_name === "Expired");
    expect(expired).toMatchObject({
      status: "Required",
      display_status: "Expired",
      category: "Active",
      urgency: "expired",
    });
    const na = d.permits.at(-1);
    expect(na).toMatchObject({ status: "N/A", display_status: "N/A", category: null, urgency: null });
  });

  it("takes the start date from the earliest permit creation when the project has none, else null", async () => {
    const empty = await t.make.project({ companyId: w.companyId });
    expect((await w.admin.get(`/api/projects/${empty.id}/dashboard`)).json().start_date).toBeNull();
    const project = await t.make.project({ companyId: w.companyId });
    await t.make.permit({
      companyId: w.companyId,
      projectId: project.id,
      createdAt: new Date("2024-06-01T20:00:00Z"),
    });
    await t.make.permit({
      companyId: w.companyId,
      projectId: project.id,
      createdAt: new Date("2024-07-01T12:00:00Z"),
    });
    // 20:00 UTC on June 1 is already June 2 in the company's zone (UTC+14)
    expect((await w.admin.get(`/api/projects/${project.id}/dashboard`)).json().start_date).toBe("2024-06-02");
  });
});
