import { asc, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bondLedgerEntries, permitAudit, permits, savedViews } from "../db/schema.ts";
import { BOND_CLOSE_LOCKED } from "../features/permits/permits.service.ts";
import { useTestContext, type ApiClient } from "../test-support/harness.ts";
import { useWorld } from "../test-support/world.ts";
import { SAVED_VIEWS_MAX } from "../../shared/domain/permit-list.ts";
import type { PermitDetail } from "../../shared/schemas/permit-detail.ts";

/*
 * Security findings 8 and 9.
 *
 * 8: the permit form (PUT /api/permits/:id) closed an open bond, or reopened a released or
 * cancelled one, by changing its Close Date, around the Bond Ledger (decision 0014: a bond with a
 * ledger is closed by a Release or a Cancellation and reopened by reversing it).
 *
 * 9: parallel saves of one user went past the limit of saved views (the count was read before
 * the others' inserts had committed). The race needs several connections: on PostgreSQL the old
 * code ended with 51 to 55 views; PGlite runs one transaction at a time, where it never raced.
 */

const t = useTestContext({ SIGNIN_IP_LIMIT: "100000", API_RATE_LIMIT: "100000" });
const w = useWorld(t, { permits: true }, async (w) => ({
  projectId: (await t.make.project({ companyId: w.companyId, clientId: w.seenClientId })).id,
}));

let n = 0;

/** A bond through the permit form; with an amount its ledger opens with the original entry. */
async function newBond(over: Record<string, unknown> = {}) {
  n++;
  const res = await w.admin.post("/api/permits", {
    permit_number: `SEC-B-${n}`,
    permit_name: `Bond ${n}`,
    record_type: "bond",
    agency: "City of Springfield",
    issue_date: "2026-01-05",
    expiration_date: "2028-06-30",
    project_id: w.projectId,
    bond_amount: "100000",
    surety_company: "Acme Surety",
    guarantee_type: "Performance",
    ...over,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as PermitDetail;
}

/** The permit as the edit form sends it back (web permitFormValues: nulls as empty inputs). */
async function formOf(id: string, api: ApiClient = w.admin) {
  const res = await api.get(`/api/permits/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  const p = res.json() as PermitDetail;
  return {
    permit_number: p.permit_number,
    permit_name: p.permit_name,
    record_type: p.record_type,
    agency: p.agency ?? "",
    is_required: p.status === "Required",
    archived: p.archived,
    project_id: p.project_id ?? "",
    company_id: p.company_id,
    permit_application_date: p.permit_application_date ?? "",
    issue_date: p.issue_date ?? "",
    expiration_date: p.expiration_date ?? "",
    start_date: p.start_date ?? "",
    close_date: p.close_date ?? "",
    final_status: p.final_status ?? "",
    phase: p.phase ?? "",
    aka: p.aka ?? "",
    grantor_link: p.grantor_link ?? "",
    bond_amount: p.bond_amount ?? "",
    surety_id: p.surety_id ?? "",
    surety_company: p.surety_company ?? "",
    bond_number: p.bond_number ?? "",
    guarantee_type: p.guarantee_type ?? "",
    responsible_user_id: p.responsible?.id ?? "",
    expiry_rule: p.expiry_rule,
    expiry_days: p.expiry_days === null ? "" : String(p.expiry_days),
    renewal_lead_days: p.renewal_lead_days === null ? "" : String(p.renewal_lead_days),
  };
}

const addEntry = async (id: string, body: object) => {
  const res = await w.admin.post(`/api/bonds/${id}/ledger`, body);
  expect(res.statusCode, res.body).toBe(200);
};

/** What the refusal must leave alone: the bond's row, its ledger and its audit trail. */
async function stateOf(id: string) {
  const [row] = await t.db.select().from(permits).where(eq(permits.id, id));
  const ledger = await t.db
    .select()
    .from(bondLedgerEntries)
    .where(eq(bondLedgerEntries.permitId, id))
    .orderBy(asc(bondLedgerEntries.seq));
  const [audit] = await t.db.select({ n: count() }).from(permitAudit).where(eq(permitAudit.permitId, id));
  return {
    closeDate: row!.closeDate,
    finalStatus: row!.finalStatus,
    bondStatus: row!.bondStatus,
    currentAmount: row!.currentAmount,
    permitName: row!.permitName,
    updatedAt: row!.updatedAt.toISOString(),
    ledger,
    audit: audit!.n,
  };
}

function expectRefused(res: { statusCode: number; body: string; json(): unknown }) {
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json() as { code: string; message: string; fields: Record<string, string> };
  expect(body.code).toBe("VALIDATION");
  expect(body.fields).toEqual({ close_date: BOND_CLOSE_LOCKED });
  expect(body.fields.close_date).toMatch(/Release or a Cancellation/);
}

/** A PUT of the unchanged close date with another field changed: saves, ledger and status untouched. */
async function expectSavesUnchanged(id: string, form: Awaited<ReturnType<typeof formOf>>, name: string) {
  const before = await stateOf(id);
  const res = await w.admin.put(`/api/permits/${id}`, { ...form, permit_name: name });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toMatchObject({ permit_name: name, close_date: before.closeDate });
  const after = await stateOf(id);
  expect(after).toMatchObject({
    permitName: name,
    closeDate: before.closeDate,
    finalStatus: before.finalStatus,
    bondStatus: before.bondStatus,
    currentAmount: before.currentAmount,
  });
  expect(after.ledger).toEqual(before.ledger);
}

describe("finding 8: the permit form does not close or reopen a bond with a ledger", () => {
  it("refuses a new close date on an open bond with ledger entries (close date, status, ledger unchanged), saves it with the close date unchanged, and still lets a plain permit and a bond without a ledger set one", async () => {
    const bond = await newBond();
    await addEntry(bond.id, {
      kind: "rider",
      change: "2500",
      effective_date: "2026-02-01",
      reason: "Change order",
    });
    const form = await formOf(bond.id);
    const before = await stateOf(bond.id);
    expect(before).toMatchObject({ closeDate: null, bondStatus: "active", currentAmount: "102500.00" });
    expect(before.ledger).toHaveLength(2);

    // A close date comes with its Final Status, as the form sends them.
    const closing = { close_date: "2026-06-01", final_status: "Completed" };
    expectRefused(await w.admin.put(`/api/permits/${bond.id}`, { ...form, ...closing }));
    // Nor with another field changed alongside it: nothing of the save lands.
    expectRefused(await w.admin.put(`/api/permits/${bond.id}`, { ...form, ...closing, permit_name: "X" }));
    expect(await stateOf(bond.id)).toEqual(before);
    const ledger = (await w.admin.get(`/api/bonds/${bond.id}/ledger`)).json();
    expect(ledger).toMatchObject({ status: "active", current_amount: "102500.00" });

    // The close date as it was (none): the form saves.
    await expectSavesUnchanged(bond.id, form, "Renamed open bond");

    // A plain permit, and a bond without a ledger (no amount: it closes like a permit), still do.
    const permit = await newBond({
      record_type: "permit",
      bond_amount: null,
      surety_company: null,
      guarantee_type: null,
    });
    const noLedger = await newBond({ bond_amount: null });
    for (const id of [permit.id, noLedger.id]) {
      const plain = await formOf(id);
      expect(plain.close_date).toBe("");
      const set = await w.admin.put(`/api/permits/${id}`, {
        ...plain,
        close_date: "2026-03-01",
        final_status: "Finaled",
      });
      expect(set.statusCode, set.body).toBe(200);
      expect(set.json().close_date).toBe("2026-03-01");
      const cleared = await w.admin.put(`/api/permits/${id}`, { ...plain, close_date: "" });
      expect(cleared.statusCode, cleared.body).toBe(200);
      expect(cleared.json().close_date).toBeNull();
    }
    const [none] = await t.db
      .select({ n: count() })
      .from(bondLedgerEntries)
      .where(eq(bondLedgerEntries.permitId, noLedger.id));
    expect(none!.n).toBe(0);
  });

  it("refuses to clear or move the close date of a released bond and of a cancelled one, and saves their form with it unchanged", async () => {
    const released = await newBond();
    await addEntry(released.id, { kind: "release", effective_date: "2026-05-01" });
    const cancelled = await newBond();
    await addEntry(cancelled.id, {
      kind: "cancellation",
      effective_date: "2026-04-01",
      reason: "Project abandoned",
    });
    for (const [bond, closed, finalStatus, bondStatus] of [
      [released, "2026-05-01", "Completed", "released"],
      [cancelled, "2026-04-01", "Cancelled", "cancelled"],
    ] as const) {
      const form = await formOf(bond.id);
      expect(form.close_date).toBe(closed);
      const before = await stateOf(bond.id);
      expect(before).toMatchObject({ closeDate: closed, finalStatus, bondStatus, currentAmount: "0.00" });

      expectRefused(await w.admin.put(`/api/permits/${bond.id}`, { ...form, close_date: "" }));
      expectRefused(await w.admin.put(`/api/permits/${bond.id}`, { ...form, close_date: null }));
      expectRefused(await w.admin.put(`/api/permits/${bond.id}`, { ...form, close_date: "2026-07-01" }));
      expect(await stateOf(bond.id)).toEqual(before);

      await expectSavesUnchanged(bond.id, form, `Renamed ${bondStatus} bond`);
    }
  });
});

describe("finding 9: parallel saves keep a user within the saved views' limit", () => {
  it(`leaves exactly ${SAVED_VIEWS_MAX} views when 40 saves arrive at once on top of 45, the rest refused with the limit's message`, async () => {
    const user = await t.make.user({ role: "company-user", companyId: w.companyId });
    const api = await t.signIn(user);
    await t.db.insert(savedViews).values(
      Array.from({ length: 45 }, (_, i) => ({
        userId: user.id,
        companyId: w.companyId,
        name: `Existing ${i}`,
        params: { tile: "expired" },
      })),
    );

    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        api.post("/api/saved-views", { name: `Parallel ${i}`, params: { tile: "expired" } }),
      ),
    );
    const held = await t.db.select({ n: count() }).from(savedViews).where(eq(savedViews.userId, user.id));
    expect(held[0]!.n).toBe(SAVED_VIEWS_MAX);
    const statuses = answers.map((r) => r.statusCode);
    expect(
      statuses.filter((s) => s >= 500),
      answers.map((r) => r.body).join("\n"),
    ).toEqual([]);
    expect(statuses.filter((s) => s === 201)).toHaveLength(SAVED_VIEWS_MAX - 45);
    for (const refused of answers.filter((r) => r.statusCode !== 201)) {
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().fields.name).toBe(
        `You can keep at most ${SAVED_VIEWS_MAX} views; delete one first.`,
      );
    }
    const listed = (await api.get("/api/saved-views")).json().views as unknown[];
    expect(listed).toHaveLength(SAVED_VIEWS_MAX);
  });
});
