import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents, clients, permits, projects } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";

const t = useTestContext();

const w = useWorld(t, { otherAdmin: true });

const clientRows = (companyId: string) => t.db.select().from(clients).where(eq(clients.companyId, companyId));

describe("GET /api/clients", () => {
  it("requires sign-in", async () => {
    expect((await t.anonymous.get("/api/clients")).statusCode).toBe(401);
  });

  it("refuses company-users and client-users (403)", async () => {
    expect((await w.user.get("/api/clients")).statusCode).toBe(403);
    expect((await w.clientUser.get("/api/clients")).statusCode).toBe(403);
  });

  it("gives a company-admin its own company's clients only, by name case-insensitively, with what it may do", async () => {
    const company = await t.make.company({ name: "Sorted Co" });
    await t.make.client(company.id, "beta");
    await t.make.client(company.id, "Alpha");
    await t.make.client(company.id, "Gamma");
    await t.make.client(w.otherCompanyId, "Foreign");
    const admin = await t.signIn(await t.make.user({ role: "company-admin", companyId: company.id }));
    const res = await admin.get(`/api/clients?company_id=${w.otherCompanyId}`);
    expect(res.statusCode).toBe(200);
    const list = res.json().clients;
    expect(list.map((c: { name: string }) => c.name)).toEqual(["Alpha", "beta", "Gamma"]);
    expect(list[0]).toEqual({
      id: expect.any(String),
      name: "Alpha",
      companyId: company.id,
      companyName: "Sorted Co",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      projectCount: 0,
      can: { edit: true, delete: true },
    });
  });

  it("gives a super-admin every company's clients, or one company's with company_id", async () => {
    const all = (await w.superAdmin.get("/api/clients")).json().clients as { companyId: string }[];
    expect(all.some((c) => c.companyId === w.companyId)).toBe(true);
    expect(all.some((c) => c.companyId === w.otherCompanyId)).toBe(true);
    const one = (await w.superAdmin.get(`/api/clients?company_id=${w.otherCompanyId}`)).json().clients as {
      companyId: string;
    }[];
    expect(one.length).toBeGreaterThan(0);
    expect(one.every((c) => c.companyId === w.otherCompanyId)).toBe(true);
  });

  it("answers 400 for a malformed company_id", async () => {
    const res = await w.superAdmin.get("/api/clients?company_id=nope");
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.company_id).toBeDefined();
  });
});

describe("GET /api/clients/:id", () => {
  it("requires sign-in, hides other companies (404) and refuses non-admins (403)", async () => {
    const mine = await t.make.client(w.companyId);
    const foreign = await t.make.client(w.otherCompanyId);
    expect((await t.anonymous.get(`/api/clients/${mine.id}`)).statusCode).toBe(401);
    expect((await w.admin.get(`/api/clients/${foreign.id}`)).statusCode).toBe(404);
    expect((await w.admin.get(`/api/clients/${t.make.uuid()}`)).json().message).toBe("Client not found.");
    expect((await w.user.get(`/api/clients/${mine.id}`)).statusCode).toBe(403);
    // a client-user's other clients do not exist for it; its own it may not manage
    expect((await w.clientUser.get(`/api/clients/${mine.id}`)).statusCode).toBe(404);
    expect((await w.clientUser.get(`/api/clients/${w.seenClientId}`)).statusCode).toBe(403);
    expect((await w.user.get(`/api/clients/${foreign.id}`)).statusCode).toBe(404);
    expect((await w.admin.get(`/api/clients/${mine.id}`)).json().client.id).toBe(mine.id);
    expect((await w.superAdmin.get(`/api/clients/${foreign.id}`)).json().client.id).toBe(foreign.id);
  });
});

describe("POST /api/clients", () => {
  it("requires sign-in and refuses non-admins, creating nothing", async () => {
    const before = (await clientRows(w.companyId)).length;
    expect((await t.anonymous.post("/api/clients", { name: "X" })).statusCode).toBe(401);
    expect((await w.user.post("/api/clients", { name: "X" })).statusCode).toBe(403);
    expect((await w.clientUser.post("/api/clients", { name: "X" })).statusCode).toBe(403);
    expect((await clientRows(w.companyId)).length).toBe(before);
  });

  it("creates a trimmed client in the company-admin's own company, ignoring another company_id, and audits it", async () => {
    const res = await w.admin.post("/api/clients", {
      name: "  Front Range Medical  ",
      company_id: w.otherCompanyId,
    });
    expect(res.statusCode).toBe(201);
    const client = res.json().client;
    expect(client).toMatchObject({
      name: "Front Range Medical",
      companyId: w.companyId,
      companyName: "Acme Builders",
    });
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, client.id));
    expect(events).toMatchObject([{ action: "create", entityType: "client", companyId: w.companyId }]);
  });

  it("lets a super-admin create in a named company, and requires the company", async () => {
    const res = await w.superAdmin.post("/api/clients", {
      name: "Port of Oakland",
      company_id: w.otherCompanyId,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().client.companyId).toBe(w.otherCompanyId);
    const missing = await w.superAdmin.post("/api/clients", { name: "Nowhere" });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields.company_id).toBe("Company ID is missing. Please select a company.");
    const unknown = await w.superAdmin.post("/api/clients", { name: "Nowhere", company_id: t.make.uuid() });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fields.company_id).toBe("Company not found.");
  });

  it("requires a name after trimming: 'Client Name is required'", async () => {
    const before = (await clientRows(w.companyId)).length;
    const res = await w.admin.post("/api/clients", { name: "   " });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ name: "Client Name is required" });
    expect((await w.admin.post("/api/clients", {})).statusCode).toBe(400);
    expect((await w.admin.post("/api/clients", { name: "x".repeat(201) })).statusCode).toBe(400);
    expect((await clientRows(w.companyId)).length).toBe(before);
  });

  it("keeps names unique within a company case-insensitively (409 with a field message), but not across companies", async () => {
    expect((await w.admin.post("/api/clients", { name: "Riverside Apartments" })).statusCode).toBe(201);
    const dup = await w.admin.post("/api/clients", { name: "RIVERSIDE apartments " });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({
      code: "CONFLICT",
      fields: { name: 'A client named "RIVERSIDE apartments" already exists in this company.' },
    });
    expect((await w.otherAdmin.post("/api/clients", { name: "Riverside Apartments" })).statusCode).toBe(201);
    const named = (await clientRows(w.companyId)).filter(
      (c) => c.name.toLowerCase() === "riverside apartments",
    );
    expect(named).toHaveLength(1);
  });
});

describe("PUT /api/clients/:id", () => {
  it("requires sign-in, hides other companies (404), refuses non-admins (403)", async () => {
    const mine = await t.make.client(w.companyId, "Rename Me");
    const foreign = await t.make.client(w.otherCompanyId, "Not Yours");
    expect((await t.anonymous.put(`/api/clients/${mine.id}`, { name: "X" })).statusCode).toBe(401);
    expect((await w.admin.put(`/api/clients/${foreign.id}`, { name: "Taken Over" })).statusCode).toBe(404);
    expect((await w.user.put(`/api/clients/${mine.id}`, { name: "X" })).statusCode).toBe(403);
    expect((await w.clientUser.put(`/api/clients/${w.seenClientId}`, { name: "X" })).statusCode).toBe(403);
    const [row] = await t.db.select().from(clients).where(eq(clients.id, foreign.id));
    expect(row!.name).toBe("Not Yours");
  });

  it("renames; projects and permits keep the client by id", async () => {
    const client = await t.make.client(w.companyId, "Old Name");
    const project = await t.make.project({ companyId: w.companyId, clientId: client.id });
    const permit = await t.make.permit({ companyId: w.companyId, projectId: project.id });
    const res = await w.admin.put(`/api/clients/${client.id}`, { name: " New Name " });
    expect(res.statusCode).toBe(200);
    expect(res.json().client).toMatchObject({ id: client.id, name: "New Name", projectCount: 1 });
    const [p] = await t.db.select().from(projects).where(eq(projects.id, project.id));
    const [pm] = await t.db.select().from(permits).where(eq(permits.id, permit.id));
    expect(p!.clientId).toBe(client.id);
    expect(pm!.clientId).toBe(client.id);
    // only the case changes: allowed (it is the same client)
    expect((await w.admin.put(`/api/clients/${client.id}`, { name: "NEW NAME" })).statusCode).toBe(200);
  });

  it("answers 400 for an empty name and 409 for another client's name, changing nothing", async () => {
    await t.make.client(w.companyId, "Existing One");
    const client = await t.make.client(w.companyId, "Keep Me");
    const empty = await w.admin.put(`/api/clients/${client.id}`, { name: "" });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields.name).toBe("Client Name is required");
    const dup = await w.admin.put(`/api/clients/${client.id}`, { name: "existing one" });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().fields.name).toContain("already exists");
    const [row] = await t.db.select().from(clients).where(eq(clients.id, client.id));
    expect(row!.name).toBe("Keep Me");
  });
});

describe("DELETE /api/clients/:id", () => {
  it("requires sign-in, hides other companies (404), refuses non-admins (403)", async () => {
    const mine = await t.make.client(w.companyId);
    const foreign = await t.make.client(w.otherCompanyId);
    expect((await t.anonymous.delete(`/api/clients/${mine.id}`)).statusCode).toBe(401);
    expect((await w.admin.delete(`/api/clients/${foreign.id}`)).statusCode).toBe(404);
    expect((await w.user.delete(`/api/clients/${mine.id}`)).statusCode).toBe(403);
    expect((await w.clientUser.delete(`/api/clients/${w.seenClientId}`)).statusCode).toBe(403);
    expect(await t.db.select().from(clients).where(eq(clients.id, foreign.id))).toHaveLength(1);
    expect(await t.db.select().from(clients).where(eq(clients.id, mine.id))).toHaveLength(1);
  });

  it("deletes an unused client (super-admin in any company too) and audits it", async () => {
    const mine = await t.make.client(w.companyId);
    const foreign = await t.make.client(w.otherCompanyId);
    expect((await w.admin.delete(`/api/clients/${mine.id}`)).statusCode).toBe(204);
    expect((await w.superAdmin.delete(`/api/clients/${foreign.id}`)).statusCode).toBe(204);
    expect(await t.db.select().from(clients).where(eq(clients.id, mine.id))).toHaveLength(0);
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, mine.id));
    expect(events.map((e) => e.action)).toContain("delete");
  });

  it("refuses a client with projects, naming the count, and keeps everything", async () => {
    const client = await t.make.client(w.companyId, "Busy Client");
    await t.make.project({ companyId: w.companyId, clientId: client.id });
    await t.make.project({ companyId: w.companyId, clientId: client.id });
    const res = await w.admin.delete(`/api/clients/${client.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      '"Busy Client" cannot be deleted: it has 2 projects. Move them to another client or delete them first.',
    );
    expect(await t.db.select().from(clients).where(eq(clients.id, client.id))).toHaveLength(1);
  });

  it("refuses a client with permits outside any project", async () => {
    const client = await t.make.client(w.companyId, "Loose Permits");
    await t.make.permit({ companyId: w.companyId, clientId: client.id });
    const res = await w.admin.delete(`/api/clients/${client.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain("1 permit without a project");
  });
});
