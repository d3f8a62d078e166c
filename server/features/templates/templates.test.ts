import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents, permitTemplates } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { freshCompany, useWorld } from "../../test-support/world.ts";
import type { Template } from "../../../shared/schemas/templates.ts";

const t = useTestContext();

const w = useWorld(t);

const row = async (id: string) =>
  (await t.db.select().from(permitTemplates).where(eq(permitTemplates.id, id)))[0];
const rowsOf = (companyId: string) =>
  t.db.select().from(permitTemplates).where(eq(permitTemplates.companyId, companyId));

describe("GET /api/templates", () => {
  it("requires sign-in and refuses company-users and client-users (403)", async () => {
    expect((await t.anonymous.get("/api/templates")).statusCode).toBe(401);
    expect((await w.user.get("/api/templates")).statusCode).toBe(403);
    expect((await w.clientUser.get("/api/templates")).statusCode).toBe(403);
  });

  it("lists a company-admin's own templates by name, whatever company_id says", async () => {
    const { company, admin } = await freshCompany(t);
    await t.make.template({ companyId: company.id, name: "stormwater", agency: "District", status: "N/A" });
    await t.make.template({ companyId: company.id, name: "Building", agency: null, active: false });
    await t.make.template({ companyId: w.otherCompanyId, name: "Foreign" });
    const res = await admin.get(`/api/templates?company_id=${w.otherCompanyId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().templates).toEqual([
      {
        id: expect.any(String),
        company_id: company.id,
        name: "Building",
        agency: null,
        status: "Required",
        active: false,
        expiry_rule: "fixed",
        expiry_days: null,
        renewal_lead_days: null,
        conditions: [],
        can: { edit: true, delete: true },
      },
      {
        id: expect.any(String),
        company_id: company.id,
        name: "stormwater",
        agency: "District",
        status: "N/A",
        active: true,
        expiry_rule: "fixed",
        expiry_days: null,
        renewal_lead_days: null,
        conditions: [],
        can: { edit: true, delete: true },
      },
    ]);
  });

  it("makes a super-admin pick the company", async () => {
    const missing = await w.superAdmin.get("/api/templates");
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields.company_id).toBe("Company ID is missing. Please select a company.");
    expect((await w.superAdmin.get(`/api/templates?company_id=${t.make.uuid()}`)).statusCode).toBe(400);
    await t.make.template({ companyId: w.otherCompanyId, name: "Theirs" });
    const list = (await w.superAdmin.get(`/api/templates?company_id=${w.otherCompanyId}`)).json()
      .templates as Template[];
    expect(list.map((x) => x.name)).toContain("Theirs");
    expect(list.every((x) => x.company_id === w.otherCompanyId)).toBe(true);
  });
});

describe("POST /api/templates", () => {
  it("requires sign-in and refuses non-admins, adding nothing", async () => {
    const before = (await rowsOf(w.companyId)).length;
    expect((await t.anonymous.post("/api/templates", { name: "X" })).statusCode).toBe(401);
    expect((await w.user.post("/api/templates", { name: "X" })).statusCode).toBe(403);
    expect((await w.clientUser.post("/api/templates", { name: "X" })).statusCode).toBe(403);
    expect((await rowsOf(w.companyId)).length).toBe(before);
  });

  it("adds a trimmed template, Required and active by default, to the admin's own company, and audits it", async () => {
    const res = await w.admin.post("/api/templates", {
      name: "  Grading Permit ",
      agency: " County ",
      company_id: w.otherCompanyId,
    });
    expect(res.statusCode).toBe(201);
    const template = res.json().template as Template;
    expect(template).toMatchObject({
      name: "Grading Permit",
      agency: "County",
      status: "Required",
      active: true,
      company_id: w.companyId,
    });
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, template.id));
    expect(events).toMatchObject([{ action: "create", entityType: "permit_template" }]);
    const na = await w.admin.post("/api/templates", { name: "Fire Sprinkler", agency: "", status: "N/A" });
    expect(na.json().template).toMatchObject({ agency: null, status: "N/A" });
  });

  it("lets a super-admin add to a named company, and requires one", async () => {
    expect((await w.superAdmin.post("/api/templates", { name: "Nowhere" })).statusCode).toBe(400);
    const res = await w.superAdmin.post("/api/templates", { name: "For Them", company_id: w.otherCompanyId });
    expect(res.statusCode).toBe(201);
    expect(res.json().template.company_id).toBe(w.otherCompanyId);
  });

  it("answers 400 with field messages for an empty name or a bad status, adding nothing", async () => {
    const before = (await rowsOf(w.companyId)).length;
    const empty = await w.admin.post("/api/templates", { name: "   ", agency: "x" });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toEqual({ name: "Template name is required" });
    const status = await w.admin.post("/api/templates", { name: "X", status: "In Waiting" });
    expect(status.statusCode).toBe(400);
    expect(status.json().fields.status).toBe("Status must be Required or N/A");
    expect((await rowsOf(w.companyId)).length).toBe(before);
  });

  it("refuses a name the company already has, in any case (409)", async () => {
    const { admin } = await freshCompany(t);
    expect((await admin.post("/api/templates", { name: "Electrical Permit" })).statusCode).toBe(201);
    const dup = await admin.post("/api/templates", { name: "electrical PERMIT" });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().fields.name).toBe('A template named "electrical PERMIT" already exists.');
    // another company may use it
    expect((await w.admin.post("/api/templates", { name: "Electrical Permit" })).statusCode).toBe(201);
  });
});

describe("PUT /api/templates/:id", () => {
  it("requires sign-in, hides other companies (404), refuses non-admins (403), changing nothing", async () => {
    const mine = await t.make.template({ companyId: w.companyId, name: "Mine" });
    const foreign = await t.make.template({ companyId: w.otherCompanyId, name: "Foreign Edit" });
    const body = { name: "Changed", agency: "x" };
    expect((await t.anonymous.put(`/api/templates/${mine.id}`, body)).statusCode).toBe(401);
    expect((await w.admin.put(`/api/templates/${foreign.id}`, body)).statusCode).toBe(404);
    expect((await w.admin.put(`/api/templates/${t.make.uuid()}`, body)).json().message).toBe(
      "Template not found.",
    );
    expect((await w.user.put(`/api/templates/${mine.id}`, body)).statusCode).toBe(403);
    expect((await w.clientUser.put(`/api/templates/${mine.id}`, body)).statusCode).toBe(403);
    expect((await w.clientUser.put(`/api/templates/${foreign.id}`, body)).statusCode).toBe(404);
    expect([(await row(mine.id))!.name, (await row(foreign.id))!.name]).toEqual(["Mine", "Foreign Edit"]);
  });

  it("renames and changes the agency (trimmed), keeping status and active", async () => {
    const template = await t.make.template({
      companyId: w.companyId,
      name: "Old",
      status: "N/A",
      active: false,
    });
    const res = await w.admin.put(`/api/templates/${template.id}`, { name: " New ", agency: " City " });
    expect(res.statusCode).toBe(200);
    expect(res.json().template).toMatchObject({ name: "New", agency: "City", status: "N/A", active: false });
    // renaming to its own name in another case is fine
    expect(
      (await w.admin.put(`/api/templates/${template.id}`, { name: "NEW", agency: null })).statusCode,
    ).toBe(200);
    const foreign = await t.make.template({ companyId: w.otherCompanyId });
    expect(
      (await w.superAdmin.put(`/api/templates/${foreign.id}`, { name: "By Super", agency: "" })).statusCode,
    ).toBe(200);
  });

  it("answers 400 for an empty name and 409 for another template's name, changing nothing", async () => {
    const { company, admin } = await freshCompany(t);
    await t.make.template({ companyId: company.id, name: "Taken" });
    const template = await t.make.template({ companyId: company.id, name: "Keep" });
    expect((await admin.put(`/api/templates/${template.id}`, { name: "", agency: "" })).statusCode).toBe(400);
    expect((await admin.put(`/api/templates/${template.id}`, { name: "taken", agency: "" })).statusCode).toBe(
      409,
    );
    expect((await row(template.id))!.name).toBe("Keep");
  });
});

describe("expiry defaults (issue 11)", () => {
  it("adds a template with an expiry rule, its days and a lead time; days only under the inspection rule", async () => {
    const { admin } = await freshCompany(t);
    const made = await admin.post("/api/templates", {
      name: "Building",
      expiry_rule: "after_inspection",
      expiry_days: "180",
      renewal_lead_days: 30,
    });
    expect(made.statusCode).toBe(201);
    const template = made.json().template as Template;
    expect(template).toMatchObject({
      expiry_rule: "after_inspection",
      expiry_days: 180,
      renewal_lead_days: 30,
    });
    expect(await row(template.id)).toMatchObject({
      expiryRule: "after_inspection",
      expiryDays: 180,
      renewalLeadDays: 30,
    });
    // A fixed date keeps no days, whatever a form left in its days box.
    const fixed = (await admin.post("/api/templates", { name: "Grading", expiry_days: 90 })).json()
      .template as Template;
    expect(fixed).toMatchObject({ expiry_rule: "fixed", expiry_days: null, renewal_lead_days: null });
  });

  it("answers 400 with field messages for missing or out-of-range days and lead time, adding nothing", async () => {
    const { company, admin } = await freshCompany(t);
    const cases: [object, string, string?][] = [
      [{ expiry_rule: "after_inspection" }, "expiry_days", "Days is required"],
      [{ expiry_rule: "after_inspection", expiry_days: "" }, "expiry_days", "Days is required"],
      [{ expiry_rule: "after_inspection", expiry_days: 0 }, "expiry_days"],
      [{ expiry_rule: "after_inspection", expiry_days: 3651 }, "expiry_days"],
      [{ expiry_rule: "after_inspection", expiry_days: "12.5" }, "expiry_days"],
      [{ renewal_lead_days: 366 }, "renewal_lead_days"],
      [{ renewal_lead_days: -1 }, "renewal_lead_days"],
      [{ expiry_rule: "monthly" }, "expiry_rule"],
    ];
    for (const [extra, field, message] of cases) {
      const res = await admin.post("/api/templates", { name: "T", ...extra });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      if (message) expect(res.json().fields[field]).toBe(message);
      else expect(res.json().fields[field]).toBeDefined();
    }
    expect(await rowsOf(company.id)).toHaveLength(0);
  });

  it("changes the defaults with the inline edit (audited); an edit without the rule keeps them", async () => {
    const { company, admin } = await freshCompany(t);
    const tpl = await t.make.template({ companyId: company.id, name: "Building" });
    const edited = await admin.put(`/api/templates/${tpl.id}`, {
      name: "Building",
      agency: "City",
      expiry_rule: "after_inspection",
      expiry_days: 180,
      renewal_lead_days: 14,
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().template).toMatchObject({
      expiry_rule: "after_inspection",
      expiry_days: 180,
      renewal_lead_days: 14,
    });
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, tpl.id));
    expect(events.map((e) => e.details)).toContainEqual(
      expect.objectContaining({ expiry_rule: ["fixed", "after_inspection"], expiry_days: [null, 180] }),
    );
    await admin.put(`/api/templates/${tpl.id}`, { name: "Building permit", agency: "City" });
    expect(await row(tpl.id)).toMatchObject({
      name: "Building permit",
      expiryRule: "after_inspection",
      expiryDays: 180,
      renewalLeadDays: 14,
    });
    const back = await admin.put(`/api/templates/${tpl.id}`, {
      name: "Building permit",
      agency: "City",
      expiry_rule: "fixed",
      expiry_days: 180,
    });
    expect(back.json().template).toMatchObject({
      expiry_rule: "fixed",
      expiry_days: null,
      renewal_lead_days: null,
    });
    const bad = await admin.put(`/api/templates/${tpl.id}`, {
      name: "Building permit",
      agency: "City",
      expiry_rule: "after_inspection",
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.expiry_days).toBe("Days is required");
    // Non-admins and other companies change nothing.
    expect(
      (await w.user.put(`/api/templates/${tpl.id}`, { name: "x", agency: null, expiry_rule: "fixed" }))
        .statusCode,
    ).toBe(404);
    expect(await row(tpl.id)).toMatchObject({ expiryRule: "fixed", expiryDays: null });
  });
});

describe("PATCH /api/templates/:id", () => {
  it("requires sign-in, hides other companies (404), refuses non-admins (403)", async () => {
    const mine = await t.make.template({ companyId: w.companyId });
    const foreign = await t.make.template({ companyId: w.otherCompanyId });
    expect((await t.anonymous.patch(`/api/templates/${mine.id}`, { status: "N/A" })).statusCode).toBe(401);
    expect((await w.admin.patch(`/api/templates/${foreign.id}`, { status: "N/A" })).statusCode).toBe(404);
    expect((await w.user.patch(`/api/templates/${mine.id}`, { status: "N/A" })).statusCode).toBe(403);
    expect((await w.clientUser.patch(`/api/templates/${mine.id}`, { status: "N/A" })).statusCode).toBe(403);
    expect((await row(foreign.id))!.status).toBe("Required");
  });

  it("switches the status and the active flag, each on its own", async () => {
    const template = await t.make.template({ companyId: w.companyId, name: "Switchy" });
    const na = await w.admin.patch(`/api/templates/${template.id}`, { status: "N/A" });
    expect(na.json().template).toMatchObject({ name: "Switchy", status: "N/A", active: true });
    const off = await w.admin.patch(`/api/templates/${template.id}`, { active: false });
    expect(off.json().template).toMatchObject({ status: "N/A", active: false });
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, template.id));
    expect(events.map((e) => e.details)).toEqual([
      { status: ["Required", "N/A"] },
      { active: [true, false] },
    ]);
  });

  it("answers 400 for an empty change or a bad status", async () => {
    const template = await t.make.template({ companyId: w.companyId });
    expect((await w.admin.patch(`/api/templates/${template.id}`, {})).statusCode).toBe(400);
    expect((await w.admin.patch(`/api/templates/${template.id}`, { status: "Pending" })).statusCode).toBe(
      400,
    );
    expect((await w.admin.patch(`/api/templates/${template.id}`, { active: "yes" })).statusCode).toBe(400);
    expect((await row(template.id))!.status).toBe("Required");
  });
});

describe("DELETE /api/templates/:id", () => {
  it("requires sign-in, hides other companies (404), refuses non-admins (403)", async () => {
    const mine = await t.make.template({ companyId: w.companyId });
    const foreign = await t.make.template({ companyId: w.otherCompanyId });
    expect((await t.anonymous.delete(`/api/templates/${mine.id}`)).statusCode).toBe(401);
    expect((await w.admin.delete(`/api/templates/${foreign.id}`)).statusCode).toBe(404);
    expect((await w.user.delete(`/api/templates/${mine.id}`)).statusCode).toBe(403);
    expect((await w.clientUser.delete(`/api/templates/${mine.id}`)).statusCode).toBe(403);
    expect(await row(foreign.id)).toBeDefined();
    expect(await row(mine.id)).toBeDefined();
  });

  it("deletes; permits already made from the template stay", async () => {
    const { company, admin } = await freshCompany(t);
    const template = await t.make.template({ companyId: company.id, name: "Short-lived" });
    const project = (await admin.post("/api/projects", { name: "Has It" })).json().project;
    expect(project.permit_count).toBe(1);
    expect((await admin.delete(`/api/templates/${template.id}`)).statusCode).toBe(204);
    expect(await row(template.id)).toBeUndefined();
    expect((await admin.get(`/api/projects/${project.id}`)).json().project.permit_count).toBe(1);
    const foreign = await t.make.template({ companyId: w.otherCompanyId });
    expect((await w.superAdmin.delete(`/api/templates/${foreign.id}`)).statusCode).toBe(204);
  });
});
