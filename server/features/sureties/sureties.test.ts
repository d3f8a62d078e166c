import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents, permits, sureties } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";

const t = useTestContext();
const w = useWorld(t, {}, async (w) => ({
  projectId: (await t.make.project({ companyId: w.companyId, clientId: w.seenClientId })).id,
}));

const input = (over: Record<string, unknown> = {}) => ({
  name: "Keystone Surety",
  contact_name: "Kay Stone",
  phone: "555-0100",
  email: "KAY@keystone.example",
  single_limit: "2,000,000",
  aggregate_limit: "5000000",
  ...over,
});

describe("Surety Admin", () => {
  it("lets admins add, edit and delete; company-users and client-users only read", async () => {
    const created = await w.admin.post("/api/sureties", input());
    expect(created.statusCode, created.body).toBe(201);
    const s = created.json().surety;
    expect(s).toMatchObject({
      name: "Keystone Surety",
      company_id: w.companyId,
      email: "kay@keystone.example",
      single_limit: "2000000.00",
      aggregate_limit: "5000000.00",
      bond_count: 0,
      open_exposure: "0.00",
      can: { edit: true, delete: true },
    });
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, s.id));
    expect(event).toMatchObject({ action: "surety.create", companyId: w.companyId });

    for (const api of [w.user, w.clientUser]) {
      expect((await api.post("/api/sureties", input({ name: "Nope" }))).statusCode).toBe(403);
      expect((await api.put(`/api/sureties/${s.id}`, input())).statusCode).toBe(403);
      expect((await api.delete(`/api/sureties/${s.id}`)).statusCode).toBe(403);
    }
    // Staff see names and contacts; limits and exposure are the admins'.
    const byUser = (await w.user.get("/api/sureties")).json();
    expect(byUser.can).toEqual({ create: false, view_limits: false });
    expect(byUser.sureties.find((x: { id: string }) => x.id === s.id)).toMatchObject({
      name: "Keystone Surety",
      contact_name: "Kay Stone",
      single_limit: null,
      aggregate_limit: null,
      open_exposure: null,
      can: { edit: false, delete: false },
    });
    // A client-user without bonds of this surety does not see it at all.
    expect((await w.clientUser.get("/api/sureties")).json().sureties).toEqual([]);

    const edited = await w.admin.put(
      `/api/sureties/${s.id}`,
      input({ name: "Keystone Surety Co.", aggregate_limit: "" }),
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().surety).toMatchObject({ name: "Keystone Surety Co.", aggregate_limit: null });
    expect((await w.admin.delete(`/api/sureties/${s.id}`)).statusCode).toBe(204);
    expect(await t.db.select().from(sureties).where(eq(sureties.id, s.id))).toEqual([]);
  });

  it("answers 400 with field messages, 409 for a name taken in any case, and 404 across companies", async () => {
    const bad = await w.admin.post("/api/sureties", {
      name: " ",
      email: "not-mail",
      single_limit: "-5",
      aggregate_limit: "1.234",
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual([
      "aggregate_limit",
      "email",
      "name",
      "single_limit",
    ]);
    const over = await w.admin.post(
      "/api/sureties",
      input({ name: "Over", single_limit: "10", aggregate_limit: "5" }),
    );
    expect(over.statusCode).toBe(400);
    expect(over.json().fields.single_limit).toBe("Single Limit cannot be more than the Aggregate Limit");

    expect((await w.admin.post("/api/sureties", input({ name: "Twice Surety" }))).statusCode).toBe(201);
    const twice = await w.admin.post("/api/sureties", input({ name: "TWICE surety" }));
    expect(twice.statusCode).toBe(409);
    expect(twice.json().fields).toEqual({ name: "A surety with this name already exists" });

    const otherAdmin = await t.signIn(
      await t.make.user({ role: "company-admin", companyId: w.otherCompanyId }),
    );
    const foreign = (await otherAdmin.post("/api/sureties", input({ name: "Foreign Surety" }))).json().surety;
    expect((await w.admin.put(`/api/sureties/${foreign.id}`, input())).statusCode).toBe(404);
    expect((await w.admin.delete(`/api/sureties/${foreign.id}`)).statusCode).toBe(404);
    expect(
      (await w.admin.get("/api/sureties")).json().sureties.map((x: { name: string }) => x.name),
    ).not.toContain("Foreign Surety");
    // A company-admin's company_id is ignored: its own company.
    const own = await w.admin.post(
      "/api/sureties",
      input({ name: "Own Surety", company_id: w.otherCompanyId }),
    );
    expect(own.json().surety.company_id).toBe(w.companyId);
  });

  it("has a super-admin name the company", async () => {
    const missing = await w.superAdmin.post("/api/sureties", input({ name: "Anywhere" }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toHaveProperty("company_id");
    const made = await w.superAdmin.post(
      "/api/sureties",
      input({ name: "Chosen", company_id: w.otherCompanyId }),
    );
    expect(made.statusCode).toBe(201);
    expect(made.json().surety.company_id).toBe(w.otherCompanyId);
    const listed = (await w.superAdmin.get(`/api/sureties?company_id=${w.otherCompanyId}`)).json().sureties;
    expect(listed.map((s: { name: string }) => s.name)).toContain("Chosen");
    expect(listed.every((s: { company_id: string }) => s.company_id === w.otherCompanyId)).toBe(true);
  });

  it("refuses to delete a surety in use (409) and renames its bonds' surety name with it", async () => {
    const s = (await w.admin.post("/api/sureties", input({ name: "Busy Surety" }))).json().surety;
    const bond = await w.user.post("/api/permits", {
      permit_number: "SB-1",
      permit_name: "Busy bond",
      record_type: "bond",
      agency: "City",
      expiration_date: "2029-01-01",
      project_id: w.projectId,
      bond_amount: "1000",
      surety_id: s.id,
      guarantee_type: "Performance",
    });
    expect(bond.statusCode, bond.body).toBe(201);
    const del = await w.admin.delete(`/api/sureties/${s.id}`);
    expect(del.statusCode).toBe(409);
    expect(del.json().message).toBe(
      "This surety is named on 1 bond; choose another surety on them before deleting it.",
    );
    await w.admin.put(`/api/sureties/${s.id}`, input({ name: "Busy Surety Inc." }));
    const [row] = await t.db.select().from(permits).where(eq(permits.id, bond.json().id));
    expect(row!.suretyCompany).toBe("Busy Surety Inc.");
    // The client-user now sees it (its client's bond names it), by name only.
    const seen = (await w.clientUser.get("/api/sureties")).json();
    expect(seen.sureties).toMatchObject([
      { name: "Busy Surety Inc.", email: null, single_limit: null, bond_count: null },
    ]);
    expect(seen.can).toEqual({ create: false, view_limits: false });
  });
});
