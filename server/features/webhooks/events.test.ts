import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { permits } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { multipart } from "../../test-support/multipart.ts";
import { webhookHelpers } from "../../test-support/webhook-events.ts";
import { useWorld } from "../../test-support/world.ts";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";

/*
 * Issue 30, item 3: a permit's events are recorded where they happen, in the transaction of the
 * change, through the real API: created (the form, an import, a project's template permits,
 * 'Start Maintenance Bond'), updated (the form; a Close Date set there also closed), renewed,
 * extended (by hand and by a passed inspection) and closed. The other company's endpoint hears
 * nothing of them.
 */

const t = useTestContext();
const w = useWorld(t);
const h = webhookHelpers(t);
const today = () => todayIn("UTC");
let ours: string;
let projectId: string;

beforeAll(async () => {
  ours = (await h.endpoint(w.companyId)).id;
  await h.endpoint(w.otherCompanyId);
  projectId = (await t.make.project({ companyId: w.companyId, clientId: w.seenClientId })).id;
});

let n = 0;
const form = (over: Record<string, unknown> = {}) => ({
  permit_number: `WH-${++n}`,
  permit_name: "Grading Permit",
  record_type: "permit",
  agency: "City of Denver",
  project_id: projectId,
  issue_date: "2026-01-05",
  expiration_date: addDays(today(), 90),
  is_required: true,
  archived: false,
  ...over,
});

async function newPermit(over: Record<string, unknown> = {}) {
  const body = form(over);
  const res = await w.admin.post("/api/permits", body);
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id as string, body };
}

describe("permit events from the form", () => {
  it("permit.created with the permit as it was made", async () => {
    const { id, body } = await newPermit();
    const event = await h.theEvent(id, "permit.created", ours);
    expect(event.companyId).toBe(w.companyId);
    expect(event.data.permit).toMatchObject({
      id,
      kind: "permit",
      number: body.permit_number,
      name: "Grading Permit",
      project: { id: projectId },
      client: { id: w.seenClientId, name: "Seen Client" },
    });
    await h.nothingFor(w.otherCompanyId);
  });

  it("permit.updated names the changed fields; a Close Date set from empty is also permit.closed", async () => {
    const { id, body } = await newPermit();
    const renamed = await w.user.put(`/api/permits/${id}`, {
      ...body,
      permit_name: "Renamed",
      agency: "County",
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const updated = await h.theEvent(id, "permit.updated", ours);
    expect(updated.data).toMatchObject({ permit: { id, name: "Renamed", agency: "County" } });
    expect([...updated.data.changed].sort()).toEqual(["agency", "permit_name"]);
    // Saving with nothing changed records nothing.
    await w.user.put(`/api/permits/${id}`, { ...body, permit_name: "Renamed", agency: "County" });
    expect(await h.eventsAbout(id, "permit.updated")).toHaveLength(1);

    const closed = await w.user.put(`/api/permits/${id}`, {
      ...body,
      permit_name: "Renamed",
      agency: "County",
      close_date: today(),
      final_status: "Finaled",
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect((await h.eventsAbout(id, "permit.updated")).at(-1)!.data.changed.sort()).toEqual([
      "close_date",
      "final_status",
    ]);
    const close = await h.theEvent(id, "permit.closed", ours);
    expect(close.data).toMatchObject({ final_status: "Finaled", permit: { id, close_date: today() } });
    await h.nothingFor(w.otherCompanyId);
  });
});

describe("permit events from the lifecycle", () => {
  it("renewed and extended carry the new term; closed its final status", async () => {
    const { id } = await newPermit();
    const renewal = addDays(today(), 400);
    const renewed = await w.user.post(`/api/permits/${id}/renewals`, { new_expiration_date: renewal });
    expect(renewed.statusCode, renewed.body).toBe(200);
    const r = await h.theEvent(id, "permit.renewed", ours);
    expect(r.data).toMatchObject({
      term: { number: 2, expiration_date: renewal },
      permit: { id, expiration_date: renewal },
    });

    const later = addDays(today(), 500);
    const extended = await w.user.post(`/api/permits/${id}/extensions`, {
      new_expiration_date: later,
      reason: "Weather delay",
    });
    expect(extended.statusCode, extended.body).toBe(200);
    const e = await h.theEvent(id, "permit.extended", ours);
    expect(e.data).toMatchObject({ term: { number: 2, expiration_date: later } });

    const closed = await w.admin.post(`/api/permits/${id}/close`, {
      close_date: today(),
      final_status: "Finaled",
    });
    expect(closed.statusCode, closed.body).toBe(200);
    const c = await h.theEvent(id, "permit.closed", ours);
    expect(c.data).toMatchObject({ final_status: "Finaled", permit: { id, close_date: today() } });
    await h.nothingFor(w.otherCompanyId);
  });

  it("a passed inspection that moves the expiration date is permit.extended", async () => {
    const { id } = await newPermit({ expiry_rule: "after_inspection", expiry_days: 180 });
    const res = await w.user.post(`/api/permits/${id}/inspections`, {
      inspection_type: "Final",
      date: today(),
      result: "Passed",
    });
    expect(res.statusCode, res.body).toBe(200);
    const e = await h.theEvent(id, "permit.extended", ours);
    expect(e.data).toMatchObject({ term: { number: 1, expiration_date: addDays(today(), 180) } });
  });
});

describe("permits made in bulk", () => {
  it("an import records permit.created for each permit it made", async () => {
    const csv = [
      "project,start_date,permit_number,agency,permit_name,expiration_date,record_type",
      "Import Tower,2026-01-05,IMP-1,City,Tower permit,2027-01-01,permit",
      "Import Tower,2026-01-05,IMP-2,City,Crane permit,2027-01-01,permit",
    ].join("\n");
    const res = await w.admin.request({
      method: "POST",
      url: "/api/imports/permits",
      ...multipart([{ name: "file", filename: "permits.csv", contentType: "text/csv", content: csv }]),
    });
    expect(res.statusCode, res.body).toBe(200);
    const made = await t.db
      .select({ id: permits.id, number: permits.permitNumber })
      .from(permits)
      .where(eq(permits.companyId, w.companyId));
    const imported = made.filter((p) => p.number.startsWith("IMP-"));
    expect(imported).toHaveLength(2);
    for (const p of imported) {
      const event = await h.theEvent(p.id, "permit.created", ours);
      expect(event.data.permit.number).toBe(p.number);
    }
    await h.nothingFor(w.otherCompanyId);
  });

  it("a project's template permits are each permit.created", async () => {
    await t.make.template({ companyId: w.companyId, name: "Template Grading", agency: "County" });
    await t.make.template({ companyId: w.companyId, name: "Template Building", agency: "City" });
    const res = await w.admin.post("/api/projects", { name: "Webhook Project", project_number: "WHP-1" });
    expect(res.statusCode, res.body).toBe(201);
    const made = await t.db
      .select({ id: permits.id })
      .from(permits)
      .where(eq(permits.projectId, res.json().project.id));
    expect(made).toHaveLength(2);
    for (const p of made) await h.theEvent(p.id, "permit.created", ours);
  });

  it("'Start Maintenance Bond' records the new bond's permit.created and its original entry", async () => {
    const perf = await newPermit({
      record_type: "bond",
      bond_amount: "100000",
      surety_company: "Acme Surety",
      guarantee_type: "Performance",
    });
    const res = await w.user.post(`/api/bonds/${perf.id}/maintenance-bond`, {
      amount: "5000",
      term_months: 12,
    });
    expect(res.statusCode, res.body).toBe(201);
    const [bond] = await t.db
      .select({ id: permits.id })
      .from(permits)
      .where(eq(permits.maintenanceOfId, perf.id));
    const created = await h.theEvent(bond!.id, "permit.created", ours);
    expect(created.data.permit).toMatchObject({
      kind: "bond",
      bond: { type: "Maintenance", current_amount: 5000, status: "active" },
    });
    const entry = await h.theEvent(bond!.id, "bond.ledger_entry_added", ours);
    expect(entry.data.entry).toMatchObject({ kind: "original", change: "5000.00", amount_after: "5000.00" });
    await h.nothingFor(w.otherCompanyId);
  });
});
