import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { permitAudit, permitContacts, permits } from "../../db/schema.ts";
import type { ApiClient } from "../../test-support/harness.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { multipart } from "../../test-support/multipart.ts";
import { withinStatementBudget } from "../../test-support/statements.ts";
import { useWorld } from "../../test-support/world.ts";
import { parseCsv } from "../imports/index.ts";
import { CONTACT_NOT_IN_COMPANY } from "../../../shared/domain/contacts.ts";

// The contacts a permit or bond lists (issue 27): written with the permit form in its
// transaction, read in the detail's one statement, e-mails and phones for staff only, in the
// export's 'Contacts' column and back through the import.

const t = useTestContext();
const w = useWorld(t, { otherAdmin: true }, async (w) => {
  const project = await t.make.project({
    companyId: w.companyId,
    clientId: w.seenClientId,
    name: "Seen Tower",
  });
  const agency = await t.make.contact({
    companyId: w.companyId,
    name: "Ann Agency",
    email: "ann@city.example",
    organization: "City of Denver",
    kind: "agency",
    phone: "303-555-0100",
  });
  const agent = await t.make.contact({
    companyId: w.companyId,
    name: "Bob Bonds",
    email: "bob@liberty.example",
    organization: "Liberty Surety",
    kind: "surety_agent",
  });
  const foreign = await t.make.contact({
    companyId: w.otherCompanyId,
    name: "Bay Agent",
    email: "bay@agent.example",
  });
  return { projectId: project.id, agency, agent, foreign };
});

const body = (over: Record<string, unknown> = {}) => ({
  permit_number: `BP-${Math.random().toString(36).slice(2, 8)}`,
  permit_name: "Building Permit",
  record_type: "permit",
  agency: "City of Denver",
  expiration_date: "2030-06-30",
  project_id: w.projectId,
  ...over,
});

const linked = async (permitId: string) =>
  (await t.db.select().from(permitContacts).where(eq(permitContacts.permitId, permitId)))
    .map((r) => r.contactId)
    .sort();

describe("a permit's contacts", () => {
  it("are saved with the permit form and shown on its page: everything to staff, names to a client-user", async () => {
    const created = await w.user.post(
      "/api/permits",
      body({ contact_ids: [w.agent.id, w.agency.id, w.agency.id] }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const permit = created.json();
    expect(permit.contacts).toEqual([
      {
        id: w.agency.id,
        name: "Ann Agency",
        organization: "City of Denver",
        kind: "agency",
        email: "ann@city.example",
        phone: "303-555-0100",
      },
      {
        id: w.agent.id,
        name: "Bob Bonds",
        organization: "Liberty Surety",
        kind: "surety_agent",
        email: "bob@liberty.example",
        phone: null,
      },
    ]);
    expect(await linked(permit.id)).toEqual([w.agency.id, w.agent.id].sort());

    for (const api of [w.admin, w.user, w.superAdmin]) {
      const res = await api.get(`/api/permits/${permit.id}`);
      expect(res.json().contacts.map((c: { email: string }) => c.email)).toEqual([
        "ann@city.example",
        "bob@liberty.example",
      ]);
    }
    // The client-user (the permit is of its client) sees who, never how to reach them.
    const seen = await w.clientUser.get(`/api/permits/${permit.id}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().contacts).toEqual([
      {
        id: w.agency.id,
        name: "Ann Agency",
        organization: "City of Denver",
        kind: "agency",
        email: null,
        phone: null,
      },
      {
        id: w.agent.id,
        name: "Bob Bonds",
        organization: "Liberty Surety",
        kind: "surety_agent",
        email: null,
        phone: null,
      },
    ]);
    expect(seen.body).not.toContain("ann@city.example");
    expect(seen.body).not.toContain("303-555-0100");
  });

  it("refuses another company's contact (400 on contact_ids) and saves nothing", async () => {
    const number = "BP-REFUSED";
    const res = await w.admin.post(
      "/api/permits",
      body({ permit_number: number, contact_ids: [w.agency.id, w.foreign.id] }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ contact_ids: CONTACT_NOT_IN_COMPANY });
    expect(await t.db.select().from(permits).where(eq(permits.permitNumber, number))).toEqual([]);
    const unknown = await w.admin.post("/api/permits", body({ contact_ids: [t.make.uuid()] }));
    expect(unknown.json().fields).toEqual({ contact_ids: CONTACT_NOT_IN_COMPANY });
    const bad = await w.admin.post("/api/permits", body({ contact_ids: ["nope"] }));
    expect(bad.statusCode).toBe(400);

    // On an update too: the permit's other changes roll back with it.
    const permit = (await w.admin.post("/api/permits", body({ contact_ids: [w.agency.id] }))).json();
    const refused = await w.admin.put(
      `/api/permits/${permit.id}`,
      body({ permit_number: permit.permit_number, permit_name: "Renamed", contact_ids: [w.foreign.id] }),
    );
    expect(refused.statusCode).toBe(400);
    const after = (await w.admin.get(`/api/permits/${permit.id}`)).json();
    expect(after.permit_name).toBe("Building Permit");
    expect(after.contacts.map((c: { id: string }) => c.id)).toEqual([w.agency.id]);
  });

  it("changes on update (audited by name), stays when the form leaves them out, and go when a contact is deleted", async () => {
    const permit = (await w.admin.post("/api/permits", body({ contact_ids: [w.agency.id] }))).json();
    const put = (over: Record<string, unknown>) =>
      w.admin.put(`/api/permits/${permit.id}`, body({ permit_number: permit.permit_number, ...over }));
    const swapped = await put({ contact_ids: [w.agent.id] });
    expect(swapped.statusCode, swapped.body).toBe(200);
    expect(swapped.json().contacts.map((c: { name: string }) => c.name)).toEqual(["Bob Bonds"]);
    // Left out: kept.
    expect(
      (await put({ permit_name: "Renamed" })).json().contacts.map((c: { name: string }) => c.name),
    ).toEqual(["Bob Bonds"]);
    // The same again: no audit entry.
    await put({ contact_ids: [w.agent.id] });
    expect((await put({ contact_ids: [] })).json().contacts).toEqual([]);
    const entries = await t.db
      .select({ field: permitAudit.field, oldValue: permitAudit.oldValue, newValue: permitAudit.newValue })
      .from(permitAudit)
      .where(eq(permitAudit.permitId, permit.id));
    expect(entries.filter((e) => e.field === "contacts")).toEqual([
      { field: "contacts", oldValue: "Ann Agency", newValue: "Bob Bonds" },
      { field: "contacts", oldValue: "Bob Bonds", newValue: null },
    ]);
    // The audit trail a client-user reads names them, never e-mails.
    const trail = await w.clientUser.get(`/api/permits/${permit.id}/audit`);
    expect(trail.statusCode).toBe(200);
    expect(trail.body).toContain("Bob Bonds");
    expect(trail.body).not.toContain("@");

    // Deleting a contact a permit lists takes it off the permit.
    const temp = await t.make.contact({ companyId: w.companyId, name: "Temp Person" });
    await put({ contact_ids: [temp.id, w.agent.id] });
    const listed = (await w.admin.get(`/api/contacts?q=Temp`)).json().contacts[0];
    expect(listed.permit_count).toBe(1);
    expect((await w.admin.delete(`/api/contacts/${temp.id}`)).statusCode).toBe(204);
    expect(
      (await w.admin.get(`/api/permits/${permit.id}`)).json().contacts.map((c: { name: string }) => c.name),
    ).toEqual(["Bob Bonds"]);
  });

  it("reads the permit page in its one statement however many contacts it lists", async () => {
    const many = [];
    for (let i = 0; i < 8; i++)
      many.push((await t.make.contact({ companyId: w.companyId, name: `Many ${i}` })).id);
    const permit = (await w.admin.post("/api/permits", body({ contact_ids: many }))).json();
    for (const api of [w.admin, w.clientUser]) {
      const res = await withinStatementBudget(t.database, 2, () => api.get(`/api/permits/${permit.id}`));
      expect(res.json().contacts).toHaveLength(8);
    }
  });
});

const csvOf = (text: string) => parseCsv(text.replace(/^\uFEFF/, ""));

function upload(api: ApiClient, csv: string) {
  return api.request({
    method: "POST",
    url: "/api/imports/permits",
    ...multipart([{ name: "file", filename: "permits.csv", contentType: "text/csv", content: csv }]),
  });
}

describe("a permit's contacts in the export and the import", () => {
  it("exports their e-mails in 'Contacts' (staff only) and imports them back as the same contacts", async () => {
    const company = await t.make.company({ name: "Round Trip Co" });
    const admin = await t.signIn(await t.make.user({ role: "company-admin", companyId: company.id }));
    const client = await t.make.client(company.id, "Trip Client");
    const clientUser = await t.signIn(
      await t.make.user({ role: "client-user", companyId: company.id, clientIds: [client.id] }),
    );
    const project = await t.make.project({
      companyId: company.id,
      clientId: client.id,
      name: "Trip Tower",
      projectNumber: "TT-1",
    });
    const a = await t.make.contact({ companyId: company.id, name: "Zed", email: "zed@agency.example" });
    const b = await t.make.contact({ companyId: company.id, name: "Amy", email: "Amy@Surety.example" });
    const permit = (
      await admin.post(
        "/api/permits",
        body({ project_id: project.id, permit_number: "TRIP-1", contact_ids: [a.id, b.id] }),
      )
    ).json();

    const exported = await admin.get("/api/permits/export?format=csv");
    expect(exported.statusCode).toBe(200);
    const table = csvOf(exported.body);
    const col = table.header.indexOf("contacts");
    expect(col).toBeGreaterThan(-1);
    expect(table.rows[0]!.fields[col]).toBe("Amy@Surety.example; zed@agency.example");
    // A client-user's export has the column, empty.
    const theirs = await clientUser.get("/api/permits/export?format=csv");
    expect(theirs.body).not.toContain("@");

    // Round trip: the permit deleted, the exported file imports it back with the same contacts.
    expect((await admin.delete(`/api/permits/${permit.id}`)).statusCode).toBe(204);
    const imported = await upload(admin, exported.body);
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json()).toMatchObject({ rejected: [], inserted: [{ permit_number: "TRIP-1" }] });
    const [back] = await t.db.select().from(permits).where(eq(permits.companyId, company.id));
    expect(await linked(back!.id)).toEqual([a.id, b.id].sort());
    const shown = (await admin.get(`/api/permits/${back!.id}`)).json();
    expect(shown.contacts.map((c: { name: string }) => c.name)).toEqual(["Amy", "Zed"]);
  });

  it("rejects a row naming an e-mail that is not a contact of the company, naming it", async () => {
    const company = await t.make.company();
    const admin = await t.signIn(await t.make.user({ role: "company-admin", companyId: company.id }));
    await t.make.contact({ companyId: company.id, name: "Known", email: "known@agency.example" });
    await t.make.contact({
      companyId: w.otherCompanyId,
      name: "Elsewhere",
      email: "elsewhere@agency.example",
    });
    const csv = [
      "project,start_date,permit_number,contacts",
      "Main St,2026-01-05,OK-1,KNOWN@agency.example",
      "Main St,2026-01-05,BAD-1,known@agency.example; stranger@agency.example",
      "Main St,2026-01-05,BAD-2,elsewhere@agency.example",
      "Main St,2026-01-05,BAD-3,not an e-mail",
    ].join("\n");
    const res = await upload(admin, csv);
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json();
    expect(result.inserted.map((r: { permit_number: string }) => r.permit_number)).toEqual(["OK-1"]);
    expect(result.rejected).toEqual([
      {
        row: 3,
        reason:
          "Row 3: contacts 'stranger@agency.example' is not a contact of this company (add it on the Contacts page first)",
      },
      {
        row: 4,
        reason:
          "Row 4: contacts 'elsewhere@agency.example' is not a contact of this company (add it on the Contacts page first)",
      },
      { row: 5, reason: "Row 5: contacts 'not an e-mail' is not an e-mail address" },
    ]);
  });
});
