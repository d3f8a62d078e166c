import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents, contacts } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";
import { CONTACT_EMAIL_TAKEN } from "../../../shared/domain/contacts.ts";

// Contacts (issue 27): /api/contacts and /api/contacts/picker, each rule with each role and two
// companies. A permit's contacts: permit-contacts.test.ts.

const t = useTestContext();
const w = useWorld(t, { otherAdmin: true });

const input = (over: Record<string, unknown> = {}) => ({
  name: "Dana Desk",
  email: "Dana.Desk@City.example",
  organization: "City of Denver",
  kind: "agency",
  phone: "555-0101",
  notes: "Permit desk, mornings",
  ...over,
});

const ids = (body: { contacts: { id: string }[] }) => body.contacts.map((c) => c.id);

describe("contacts: access", () => {
  it("requires sign-in", async () => {
    const id = t.make.uuid();
    expect((await t.anonymous.get("/api/contacts")).statusCode).toBe(401);
    expect((await t.anonymous.get("/api/contacts/picker")).statusCode).toBe(401);
    expect((await t.anonymous.post("/api/contacts", input())).statusCode).toBe(401);
    expect((await t.anonymous.put(`/api/contacts/${id}`, input())).statusCode).toBe(401);
    expect((await t.anonymous.delete(`/api/contacts/${id}`)).statusCode).toBe(401);
  });

  it("lets an admin add, edit and delete, audited; a company-user reads and adds; a client-user gets 403", async () => {
    const created = await w.admin.post("/api/contacts", input());
    expect(created.statusCode, created.body).toBe(201);
    const c = created.json().contact;
    expect(c).toMatchObject({
      company_id: w.companyId,
      company_name: "Acme Builders",
      name: "Dana Desk",
      email: "dana.desk@city.example",
      organization: "City of Denver",
      kind: "agency",
      phone: "555-0101",
      notes: "Permit desk, mornings",
      permit_count: 0,
      can: { edit: true, delete: true },
    });

    // The company-user reads (list and picker) and may add one, never edit or delete.
    const byUser = (await w.user.get("/api/contacts")).json();
    expect(byUser.can).toEqual({ create: true, manage: false });
    expect(byUser.contacts.find((x: { id: string }) => x.id === c.id).can).toEqual({
      edit: false,
      delete: false,
    });
    expect(ids((await w.user.get("/api/contacts/picker")).json())).toContain(c.id);
    const added = await w.user.post(
      "/api/contacts",
      input({ name: "Sub Sam", email: "sam@sub.example", kind: "subcontractor" }),
    );
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().contact.company_id).toBe(w.companyId);
    expect((await w.user.put(`/api/contacts/${c.id}`, input({ name: "Changed" }))).statusCode).toBe(403);
    expect((await w.user.delete(`/api/contacts/${c.id}`)).statusCode).toBe(403);

    // A client-user gets nothing at all.
    for (const res of [
      await w.clientUser.get("/api/contacts"),
      await w.clientUser.get("/api/contacts/picker"),
      await w.clientUser.post("/api/contacts", input({ email: "x@y.example" })),
      await w.clientUser.put(`/api/contacts/${c.id}`, input()),
      await w.clientUser.delete(`/api/contacts/${c.id}`),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain("dana.desk@city.example");
    }

    const edited = await w.admin.put(`/api/contacts/${c.id}`, input({ name: "Dana D. Desk", phone: "" }));
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().contact).toMatchObject({ name: "Dana D. Desk", phone: null });
    expect((await w.admin.delete(`/api/contacts/${c.id}`)).statusCode).toBe(204);
    expect(await t.db.select().from(contacts).where(eq(contacts.id, c.id))).toEqual([]);

    const events = await t.db
      .select({ action: auditEvents.action, details: auditEvents.details, companyId: auditEvents.companyId })
      .from(auditEvents)
      .where(eq(auditEvents.entityId, c.id))
      .orderBy(auditEvents.createdAt);
    expect(events.map((e) => e.action)).toEqual(["contact.create", "contact.update", "contact.delete"]);
    expect(events[1]!.details).toEqual({ fields: ["name", "phone"] });
    expect(events.every((e) => e.companyId === w.companyId)).toBe(true);
  });

  it("answers 404 for another company's contact, and lists only the actor's company", async () => {
    const theirs = await t.make.contact({
      companyId: w.otherCompanyId,
      name: "Bay Agent",
      email: "bay@agent.example",
    });
    for (const api of [w.admin, w.user]) {
      expect((await api.put(`/api/contacts/${theirs.id}`, input({ email: "z@z.example" }))).statusCode).toBe(
        404,
      );
      expect((await api.delete(`/api/contacts/${theirs.id}`)).statusCode).toBe(404);
      const list = await api.get(`/api/contacts?company_id=${w.otherCompanyId}`);
      expect(list.statusCode).toBe(200);
      expect(list.body).not.toContain("bay@agent.example");
      const picker = await api.get(`/api/contacts/picker?company_id=${w.otherCompanyId}`);
      expect(picker.body).not.toContain("bay@agent.example");
    }
    // A company-admin's new contact lands in its own company, whatever company it names.
    const named = await w.admin.post(
      "/api/contacts",
      input({ company_id: w.otherCompanyId, email: "mine@acme.example" }),
    );
    expect(named.json().contact.company_id).toBe(w.companyId);
    // The other company's admin gets 404 for ours.
    const ours = named.json().contact.id as string;
    expect((await w.otherAdmin.put(`/api/contacts/${ours}`, input())).statusCode).toBe(404);
    expect((await w.otherAdmin.delete(`/api/contacts/${ours}`)).statusCode).toBe(404);
    expect((await w.otherAdmin.get("/api/contacts")).body).not.toContain("mine@acme.example");
    expect((await w.otherAdmin.get("/api/contacts")).body).toContain("bay@agent.example");
  });

  it("lets a super-admin work in any company, naming it on create", async () => {
    const missing = await w.superAdmin.post("/api/contacts", input({ email: "sa@x.example" }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual({ company_id: "Company ID is missing. Please select a company." });
    const made = await w.superAdmin.post(
      "/api/contacts",
      input({
        company_id: w.otherCompanyId,
        name: "Owner Olive",
        email: "olive@owner.example",
        kind: "owner",
      }),
    );
    expect(made.statusCode, made.body).toBe(201);
    const c = made.json().contact;
    expect(c).toMatchObject({
      company_id: w.otherCompanyId,
      company_name: "Bayline Civil",
      can: { edit: true, delete: true },
    });
    // Every company's, or the one named.
    expect(ids((await w.superAdmin.get("/api/contacts?page_size=500")).json())).toContain(c.id);
    expect(
      ids((await w.superAdmin.get(`/api/contacts?company_id=${w.companyId}&page_size=500`)).json()),
    ).not.toContain(c.id);
    // The picker is one company's: the one named, none without.
    expect((await w.superAdmin.get("/api/contacts/picker")).json().contacts).toEqual([]);
    expect(
      ids((await w.superAdmin.get(`/api/contacts/picker?company_id=${w.otherCompanyId}`)).json()),
    ).toContain(c.id);
    // An update never moves it.
    const moved = await w.superAdmin.put(
      `/api/contacts/${c.id}`,
      input({ company_id: w.companyId, email: "olive@owner.example" }),
    );
    expect(moved.json().contact.company_id).toBe(w.otherCompanyId);
    expect((await w.superAdmin.delete(`/api/contacts/${c.id}`)).statusCode).toBe(204);
  });
});

describe("contacts: validation", () => {
  it("answers 400 with field messages and writes nothing", async () => {
    const before = (await t.db.select().from(contacts)).length;
    const bad = await w.admin.post("/api/contacts", {
      name: "  ",
      email: "not-an-email",
      kind: "vendor",
      organization: "o".repeat(201),
      phone: "1".repeat(51),
      notes: "n".repeat(2001),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({
      name: "Name is required",
      email: "Enter a valid email address",
      kind: "Kind must be one of Agency, Surety / Agent, Subcontractor, Owner, Other",
      organization: "Organization must be at most 200 characters",
      phone: "Phone must be at most 50 characters",
      notes: "Notes must be at most 2000 characters",
    });
    expect((await w.admin.post("/api/contacts", { name: "x".repeat(201) })).json().fields).toEqual({
      name: "Name must be at most 200 characters",
    });
    expect((await w.admin.get("/api/contacts?kind=vendor")).statusCode).toBe(400);
    expect((await w.admin.get("/api/contacts?page=0")).statusCode).toBe(400);
    expect((await w.admin.put("/api/contacts/not-an-id", input())).statusCode).toBe(400);
    expect((await t.db.select().from(contacts)).length).toBe(before);
  });

  it("refuses an e-mail the company has already, in any case (409 on the field); other companies may share it", async () => {
    const first = await w.admin.post("/api/contacts", input({ email: "dup@agency.example" }));
    expect(first.statusCode).toBe(201);
    const again = await w.user.post("/api/contacts", input({ name: "Other", email: " DUP@Agency.example " }));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      message: CONTACT_EMAIL_TAKEN,
      fields: { email: CONTACT_EMAIL_TAKEN },
    });
    const second = await w.admin.post("/api/contacts", input({ email: "second@agency.example" }));
    const clash = await w.admin.put(
      `/api/contacts/${second.json().contact.id}`,
      input({ email: "Dup@agency.example" }),
    );
    expect(clash.statusCode).toBe(409);
    expect(clash.json().fields).toEqual({ email: CONTACT_EMAIL_TAKEN });
    expect(
      (await w.otherAdmin.post("/api/contacts", input({ email: "dup@agency.example" }))).statusCode,
    ).toBe(201);
    // Without an e-mail, as many as you like.
    for (let i = 0; i < 2; i++) {
      expect(
        (await w.admin.post("/api/contacts", input({ email: "", name: `Phone only ${i}` }))).statusCode,
      ).toBe(201);
    }
  });
});

describe("contacts: the list", () => {
  it("searches name, e-mail, organization and phone, filters by kind, and pages by name", async () => {
    const { admin, company } = await (async () => {
      const c = await t.make.company({ name: "Paging Co" });
      const u = await t.make.user({ role: "company-admin", companyId: c.id });
      return { company: c, admin: await t.signIn(u) };
    })();
    const made = [
      ["Ann Agency", "agency", "City Hall", "ann@city.example", "303-1"],
      ["bob Bonds", "surety_agent", "Liberty Surety", "bob@liberty.example", "303-2"],
      ["Cal Concrete", "subcontractor", "Cal's 100% Concrete", "cal@concrete.example", "720-3"],
      ["Dee Owner", "owner", null, null, "720-4"],
    ] as const;
    for (const [name, kind, organization, email, phone] of made) {
      await t.make.contact({ companyId: company.id, name, kind, organization, email, phone });
    }
    const names = async (q: string) =>
      (await admin.get(`/api/contacts?${q}`)).json().contacts.map((c: { name: string }) => c.name);
    expect(await names("")).toEqual(["Ann Agency", "bob Bonds", "Cal Concrete", "Dee Owner"]);
    expect(await names("q=liberty")).toEqual(["bob Bonds"]);
    expect(await names("q=CITY.example")).toEqual(["Ann Agency"]);
    expect(await names("q=720")).toEqual(["Cal Concrete", "Dee Owner"]);
    expect(await names("q=100%25")).toEqual(["Cal Concrete"]);
    expect(await names("q=_")).toEqual([]);
    expect(await names("kind=owner")).toEqual(["Dee Owner"]);
    expect(await names("kind=agency&q=bob")).toEqual([]);
    const page2 = (await admin.get("/api/contacts?page=2&page_size=3")).json();
    expect(page2).toMatchObject({ total: 4, page: 2, page_size: 3 });
    expect(page2.contacts.map((c: { name: string }) => c.name)).toEqual(["Dee Owner"]);
    const past = (await admin.get("/api/contacts?page=9&page_size=3")).json();
    expect(past).toMatchObject({ total: 4, contacts: [] });
    // The picker: every contact of the company, by name, without notes or phones.
    const picker = (await admin.get("/api/contacts/picker")).json().contacts;
    expect(picker).toHaveLength(4);
    expect(Object.keys(picker[0]).sort()).toEqual(["email", "id", "kind", "name", "organization"]);
  });
});

describe("ensureContact", () => {
  it("finds the company's contact by e-mail in any case, else adds one", async () => {
    const { ensureContact } = await import("./index.ts");
    const existing = await t.make.contact({
      companyId: w.companyId,
      name: "Known",
      email: "known@party.example",
    });
    const found = await t.db.transaction((tx) =>
      ensureContact(tx, w.companyId, { name: "Someone Else", email: " KNOWN@Party.example " }),
    );
    expect(found.id).toBe(existing.id);
    expect(found.name).toBe("Known");
    const made = await t.db.transaction((tx) =>
      ensureContact(tx, w.companyId, {
        name: "New Party",
        email: "New@Party.example",
        organization: "Party Inc",
        kind: "owner",
      }),
    );
    expect(made).toMatchObject({
      companyId: w.companyId,
      name: "New Party",
      email: "new@party.example",
      organization: "Party Inc",
      kind: "owner",
    });
    // Another company's contact of the same e-mail is not this company's.
    const theirs = await t.db.transaction((tx) =>
      ensureContact(tx, w.otherCompanyId, { name: "Known", email: "known@party.example" }),
    );
    expect(theirs.id).not.toBe(existing.id);
    const rows = await t.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, w.companyId), eq(contacts.email, "new@party.example")));
    expect(rows).toHaveLength(1);
  });
});
