import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditText } from "../../../shared/domain/audit-text.ts";
import type { AuditEntry, AuditList } from "../../../shared/schemas/audit.ts";
import { PERMIT_INPUT_FIELDS } from "../../../shared/schemas/permit-input.ts";
import { recordPermitAudit } from "../../audit/audit-writer.ts";
import { companies } from "../../db/schema.ts";
import type { ApiClient } from "../../test-support/harness.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";

// Issue 25, item 2: the audit trail in words. The trail's response carries the names its ids point
// at (read in the same statement) and the company's currency; read through auditText(), as the
// Audit Trail card reads it, no entry shows an ISO date, a code, an id or a bare amount.

const t = useTestContext();
const w = useWorld(t, { otherAdmin: true });

const ISO_DATE = /\d{4}-\d{2}-\d{2}/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const CODE = /\b[a-z]+_[a-z_]+\b|^(permit|bond|fixed|active|reduced|true|false)$/;
const BARE_AMOUNT = /(^|[^$€\d,.])\d{4,}\.\d{2}\b/;

async function trail(api: ApiClient, id: string) {
  const res = await api.get(`/api/permits/${id}/audit`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AuditList;
}

/** The trail as the card shows it: one line per entry. */
const lines = (list: AuditList) =>
  list.entries.map((e) => {
    const text = auditText(e, { currency: list.currency });
    return `${text.action} | ${text.field ?? ""} | ${text.oldValue ?? "—"} -> ${text.newValue ?? "—"}`;
  });

const find = (list: AuditList, field: string) => list.entries.find((e) => e.field === field) as AuditEntry;

async function bondWithHistory() {
  const project = await t.make.project({
    companyId: w.companyId,
    clientId: w.seenClientId,
    name: "Riverside",
  });
  const base = {
    permit_number: `AUD-${t.make.uuid().slice(0, 8)}`,
    permit_name: "Retaining wall bond",
    agency: "City of Springfield",
    project_id: project.id,
    start_date: "2026-07-01",
    issue_date: "2026-07-01",
  };
  const created = await w.admin.post("/api/permits", {
    ...base,
    record_type: "permit",
    expiration_date: "2027-06-30",
    responsible_user_id: w.userId,
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = (created.json() as { id: string }).id;
  const steps = [
    await w.admin.put(`/api/permits/${id}`, {
      ...base,
      record_type: "bond",
      guarantee_type: "Performance",
      bond_amount: "565263.00",
      surety_company: "Liberty Surety",
      expiration_date: "2027-12-01",
      expiry_rule: "after_inspection",
      expiry_days: 180,
      responsible_user_id: w.adminId,
      archived: true,
    }),
    await w.admin.post(`/api/bonds/${id}/ledger`, {
      kind: "rider",
      change: "25000",
      effective_date: "2026-08-01",
      reason: "Added scope: east wall",
    }),
    await w.admin.post(`/api/bonds/${id}/ledger`, {
      kind: "reduction",
      percent: "50",
      effective_date: "2026-09-01",
      obligee_acceptance_date: "2026-09-01",
    }),
    await w.admin.post(`/api/bonds/${id}/collateral`, {
      form: "letter_of_credit",
      amount: "50000",
      held_since: "2026-07-15",
    }),
    await w.admin.post(`/api/permits/${id}/inspections`, {
      inspection_type: "Final",
      date: "2026-01-20",
      result: "Passed",
    }),
    await w.admin.post(`/api/permits/${id}/renewals`, {
      new_expiration_date: "2028-12-01",
      renewal_fee: "350",
      renewal_fee_internal: false,
    }),
  ];
  for (const res of steps) expect(res.statusCode, res.body).toBeLessThan(300);
  return { id, project };
}

describe("the audit trail in words (issue 25)", () => {
  it("names the Responsible Person and carries the company's currency, in one statement's answer", async () => {
    const { id } = await bondWithHistory();
    const list = await trail(w.admin, id);
    expect(list.currency).toBe("USD");
    expect(find(list, "responsible_user_id")).toMatchObject({ oldName: "Sam Baker", newName: "Ada Admin" });
    // Values that are no ids have no names.
    expect(find(list, "expiry_rule")).toMatchObject({ oldName: null, newName: null });

    const read = lines(list);
    expect(read).toEqual(
      expect.arrayContaining([
        "Update | Responsible Person | Sam Baker -> Ada Admin",
        "Update | Record Type | Permit -> Bond / Guarantee",
        "Update | Expiry Rule | Fixed date -> Days after last passed inspection",
        "Update | Expiration Date | Jun 30, 2027 -> Dec 1, 2027",
        "Update | Bond Amount | — -> $565,263.00",
        "Update | Archived | No -> Yes",
        "Ledger | Bond Ledger | — -> Original Amount effective Jul 1, 2026: +$565,263.00",
        "Ledger | Bond Ledger | — -> Rider effective Aug 1, 2026: +$25,000.00; Added scope: east wall",
        "Ledger | Bond Ledger | — -> Reduction effective Sep 1, 2026: -$295,131.50 (50%)",
        "Ledger | Current Amount | $590,263.00 -> $295,131.50",
        "Ledger | Bond Status | Active -> Reduced",
        "Collateral | Collateral | — -> Letter of Credit $50,000.00 held since Jul 15, 2026",
        "Inspection | Inspection | — -> Final: Passed on Jan 20, 2026",
        "Renew | Renewal Fee | — -> $350.00",
        "Renew | Expiration Date | Dec 1, 2027 -> Dec 1, 2028",
      ]),
    );
    for (const line of read) {
      const [, , values] = line.split(" | ");
      expect(values, line).not.toMatch(ISO_DATE);
      expect(values, line).not.toMatch(UUID);
      expect(values, line).not.toMatch(BARE_AMOUNT);
      for (const value of values!.split(" -> ")) expect(value, line).not.toMatch(CODE);
    }
  });

  it("reads amounts in the currency the company has set", async () => {
    const { id } = await bondWithHistory();
    await t.db.update(companies).set({ currency: "EUR" }).where(eq(companies.id, w.companyId));
    try {
      const list = await trail(w.user, id);
      expect(list.currency).toBe("EUR");
      expect(lines(list)).toContain("Ledger | Current Amount | €590,263.00 -> €295,131.50");
    } finally {
      await t.db.update(companies).set({ currency: "USD" }).where(eq(companies.id, w.companyId));
    }
  });

  it("says 'Former user' for a user who is gone, never the id", async () => {
    const { id } = await bondWithHistory();
    const gone = t.make.uuid();
    await recordPermitAudit(
      t.db,
      { ...(await actorOf()), companyId: w.companyId },
      { id, companyId: w.companyId },
      [{ action: "update", field: "responsible_user_id", oldValue: gone, newValue: w.userId }],
    );
    const list = await trail(w.admin, id);
    const entry = list.entries.find((e) => e.oldValue === gone)!;
    expect(entry).toMatchObject({ oldName: null, newName: "Sam Baker" });
    expect(auditText(entry, { currency: list.currency })).toMatchObject({
      oldValue: "Former user",
      newValue: "Sam Baker",
    });
  });

  it("tells no one the names of another company's records, nor a client-user another client's", async () => {
    const seen = await t.make.project({
      companyId: w.companyId,
      clientId: w.seenClientId,
      name: "Acme Tower",
    });
    const hiddenClient = await t.make.client(w.companyId, "Hidden Client Co");
    const hidden = await t.make.project({
      companyId: w.companyId,
      clientId: hiddenClient.id,
      name: "Secret Depot",
    });
    const yard = await t.make.project({ companyId: w.otherCompanyId, name: "Bayline Yard" });
    const permitIn = async (api: ApiClient, projectId: string, responsible: string | null) => {
      const res = await api.post("/api/permits", {
        permit_number: `MV-${t.make.uuid().slice(0, 8)}`,
        permit_name: "Moved permit",
        record_type: "permit",
        agency: "County",
        expiration_date: "2027-06-30",
        project_id: projectId,
        responsible_user_id: responsible,
      });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { id: string }).id;
    };
    /** The permit form saved again by `api` with `changes`. */
    const save = async (api: ApiClient, id: string, changes: Record<string, unknown>) => {
      const detail = (await api.get(`/api/permits/${id}`)).json() as Record<string, unknown>;
      const input = Object.fromEntries(PERMIT_INPUT_FIELDS.map((f) => [f, detail[f] ?? null]));
      const res = await api.put(`/api/permits/${id}`, { ...input, is_required: true, ...changes });
      expect(res.statusCode, res.body).toBe(200);
    };

    // In the company: from another client's project to one the client-user sees.
    const withinCompany = await permitIn(w.admin, hidden.id, w.userId);
    await save(w.admin, withinCompany, { project_id: seen.id, responsible_user_id: w.adminId });
    const named = (list: AuditList, field: string) => {
      const e = find(list, field);
      return [e.oldName, e.newName];
    };
    const staff = await trail(w.admin, withinCompany);
    expect(named(staff, "project_id")).toEqual(["Secret Depot", "Acme Tower"]);
    expect(named(staff, "client_id")).toEqual(["Hidden Client Co", "Seen Client"]);
    expect(named(staff, "responsible_user_id")).toEqual(["Sam Baker", "Ada Admin"]);
    const client = await trail(w.clientUser, withinCompany);
    expect(named(client, "project_id")).toEqual([null, "Acme Tower"]);
    expect(named(client, "client_id")).toEqual([null, "Seen Client"]);
    expect(named(client, "responsible_user_id")).toEqual(["Sam Baker", "Ada Admin"]);
    for (const secret of ["Secret Depot", "Hidden Client Co"])
      expect(JSON.stringify(client)).not.toContain(secret);
    expect(lines(client)).toEqual(
      expect.arrayContaining([
        "Update | Project | Another project -> Acme Tower",
        "Update | Client | Another client -> Seen Client",
      ]),
    );

    // A super-admin moves a permit to the other company: its admin is told none of this company's names.
    const movedOut = await permitIn(w.admin, seen.id, w.userId);
    await save(w.superAdmin, movedOut, {
      company_id: w.otherCompanyId,
      project_id: yard.id,
      responsible_user_id: null,
    });
    const everyone = await trail(w.superAdmin, movedOut);
    expect(named(everyone, "company_id")).toEqual(["Acme Builders", "Bayline Civil"]);
    expect(named(everyone, "project_id")).toEqual(["Acme Tower", "Bayline Yard"]);
    expect(named(everyone, "responsible_user_id")).toEqual(["Sam Baker", null]);
    const theirs = await trail(w.otherAdmin, movedOut);
    expect(named(theirs, "company_id")).toEqual([null, "Bayline Civil"]);
    expect(named(theirs, "project_id")).toEqual([null, "Bayline Yard"]);
    expect(named(theirs, "client_id")).toEqual([null, null]);
    expect(named(theirs, "responsible_user_id")).toEqual([null, null]);
    for (const secret of ["Acme Tower", "Acme Builders", "Seen Client", "Sam Baker"])
      expect(JSON.stringify(theirs)).not.toContain(secret);
    expect(lines(theirs)).toEqual(
      expect.arrayContaining([
        "Update | Company | Another company -> Bayline Civil",
        "Update | Project | Another project -> Bayline Yard",
        "Update | Responsible Person | Former user -> —",
      ]),
    );
  });
});

/** A super-admin actor for writing entries directly (the trail's writer is the services' own). */
async function actorOf() {
  return {
    userId: w.superAdminId,
    sessionId: "s",
    role: "super-admin" as const,
    companyId: null,
    email: "sue@example.com",
    name: "Sue Perry",
    clientIds: [],
    mustResetPassword: false,
    twoFactorSetupRequired: false,
    impersonatorId: null,
    impersonatorName: null,
    impersonatorEmail: null,
  };
}
