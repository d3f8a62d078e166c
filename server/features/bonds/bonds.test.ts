import { and, eq, sql, type SQL } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import {
  attachments,
  bondCollateral,
  bondLedgerEntries,
  permitAudit,
  permits,
  reminderDeliveries,
  sureties,
} from "../../db/schema.ts";
import { queryRows } from "../../db/client.ts";
import { multipart } from "../../test-support/multipart.ts";
import { useTestContext, type ApiClient } from "../../test-support/harness.ts";
import { quiesce, reminderCompany } from "../../test-support/reminder-fixtures.ts";
import { useWorld } from "../../test-support/world.ts";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";
import type { BondLedger } from "../../../shared/schemas/bond-ledger.ts";
import { sweepDueReminders } from "../reminders/index.ts";

const t = useTestContext();
const w = useWorld(t, { permits: true }, async (w) => {
  const hiddenClient = await t.make.client(w.companyId, "Hidden Bond Client");
  const seenProject = await t.make.project({ companyId: w.companyId, clientId: w.seenClientId });
  const hiddenProject = await t.make.project({ companyId: w.companyId, clientId: hiddenClient.id });
  const foreignProject = await t.make.project({ companyId: w.otherCompanyId });
  const otherAdmin = await t.signIn(
    await t.make.user({ role: "company-admin", companyId: w.otherCompanyId }),
  );
  return {
    seenProjectId: seenProject.id,
    hiddenProjectId: hiddenProject.id,
    foreignProjectId: foreignProject.id,
    foreignAdmin: otherAdmin,
  };
});

let n = 0;
const today = () => todayIn("UTC");

/** A bond through the permit form, as the browser creates it. */
async function newBond(over: Record<string, unknown> = {}, api: ApiClient = w.admin) {
  n++;
  const res = await api.post("/api/permits", {
    permit_number: `B-${n}`,
    permit_name: `Bond ${n}`,
    record_type: "bond",
    agency: "City of Springfield",
    issue_date: "2026-01-05",
    expiration_date: "2028-06-30",
    project_id: w.seenProjectId,
    bond_amount: "100000",
    surety_company: "Acme Surety",
    guarantee_type: "Performance",
    ...over,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; surety_id: string | null; bond_status: string; current_amount: string };
}

const ledgerOf = async (id: string, api: ApiClient = w.admin) => {
  const res = await api.get(`/api/bonds/${id}/ledger`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as BondLedger;
};
const post = (id: string, body: object, api: ApiClient = w.admin) =>
  api.post(`/api/bonds/${id}/ledger`, body);
const ok = async (id: string, body: object, api: ApiClient = w.admin) => {
  const res = await post(id, body, api);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as BondLedger;
};
const rider = (change: string, effective_date = "2026-02-01") => ({
  kind: "rider",
  change,
  effective_date,
  reason: "Change order",
});

/** The database's message when a statement fails (drizzle wraps it), else null. */
async function failure(query: SQL): Promise<string | null> {
  try {
    await t.db.execute(query);
    return null;
  } catch (err) {
    const e = err as { message: string; cause?: { message?: string } };
    return e.cause?.message ?? e.message;
  }
}

/** The bond row as the database holds it. */
const row = async (id: string) => (await t.db.select().from(permits).where(eq(permits.id, id)))[0]!;

describe("access", () => {
  it("requires sign-in, answers 404 for another company's bond and a client-user's hidden one", async () => {
    const bond = await newBond();
    const hidden = await newBond({ project_id: w.hiddenProjectId });
    const foreign = await newBond({ project_id: w.foreignProjectId }, w.foreignAdmin);
    expect((await t.anonymous.get(`/api/bonds/${bond.id}/ledger`)).statusCode).toBe(401);
    expect((await t.anonymous.get(`/api/bonds`)).statusCode).toBe(401);
    for (const api of [w.admin, w.user, w.clientUser]) {
      expect((await api.get(`/api/bonds/${foreign.id}/ledger`)).statusCode).toBe(404);
      expect((await post(foreign.id, rider("5"), api)).statusCode).toBe(404);
      expect(
        (
          await api.post(`/api/bonds/${foreign.id}/collateral`, {
            form: "cash",
            amount: "5",
            held_since: "2026-01-05",
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (await api.post(`/api/bonds/${foreign.id}/maintenance-bond`, { amount: "5", term_months: 12 }))
          .statusCode,
      ).toBe(404);
    }
    expect((await w.clientUser.get(`/api/bonds/${hidden.id}/ledger`)).statusCode).toBe(404);
    // A permit is not a bond.
    expect((await w.admin.get(`/api/bonds/${w.permitId}/ledger`)).statusCode).toBe(404);
    // The foreign bond is unchanged.
    expect((await row(foreign.id)).currentAmount).toBe("100000.00");
  });

  it("lets a client-user read its clients' bonds without collateral, and write nothing", async () => {
    const bond = await newBond();
    await w.admin.post(`/api/bonds/${bond.id}/collateral`, {
      form: "cash",
      amount: "2500",
      held_since: "2026-01-05",
    });
    const seen = await ledgerOf(bond.id, w.clientUser);
    expect(seen.collateral).toBeNull();
    expect(seen.collateral_held).toBeNull();
    expect(seen.entries).toHaveLength(1);
    expect(Object.values(seen.can).every((v) => v === false)).toBe(true);
    expect(seen.entries.every((e) => !e.can_reverse)).toBe(true);
    expect(JSON.stringify(seen)).not.toContain("2500");
    expect((await post(bond.id, rider("5"), w.clientUser)).statusCode).toBe(403);
    expect(
      (
        await w.clientUser.post(`/api/bonds/${bond.id}/collateral`, {
          form: "cash",
          amount: "5",
          held_since: "2026-01-05",
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await w.clientUser.post(`/api/bonds/${bond.id}/maintenance-bond`, { amount: "5", term_months: 12 }))
        .statusCode,
    ).toBe(403);
    // Company-users write the ledger like they edit permits.
    expect((await post(bond.id, rider("5"), w.user)).statusCode).toBe(200);
  });
});

describe("the bond form", () => {
  it("writes the original entry, Active, and matches a typed surety by name or creates it", async () => {
    const a = await newBond({ surety_company: "Granite Surety Co." });
    const b = await newBond({ surety_company: "  granite surety co.  " });
    expect(a.surety_id).toBeTruthy();
    expect(b.surety_id).toBe(a.surety_id);
    expect(a.bond_status).toBe("active");
    expect(a.current_amount).toBe("100000.00");
    const l = await ledgerOf(a.id);
    expect(l).toMatchObject({
      status: "active",
      original_amount: "100000.00",
      current_amount: "100000.00",
      currency: "USD",
      surety: { id: a.surety_id, name: "Granite Surety Co." },
    });
    expect(l.entries).toMatchObject([
      { kind: "original", change: "100000.00", amount_after: "100000.00", effective_date: "2026-01-05" },
    ]);
    expect(l.entries[0]!.by.name).toBe("Ada Admin");
    const detail = (await w.admin.get(`/api/permits/${b.id}`)).json();
    expect(detail).toMatchObject({ surety_company: "Granite Surety Co.", surety_id: a.surety_id });
    // By id too; another company's surety is not found.
    const c = await newBond({ surety_id: a.surety_id, surety_company: null });
    expect(c.surety_id).toBe(a.surety_id);
    const foreign = await newBond(
      { project_id: w.foreignProjectId, surety_company: "Far Away Surety" },
      w.foreignAdmin,
    );
    const bad = await w.admin.post("/api/permits", {
      permit_number: "X-1",
      permit_name: "X",
      record_type: "bond",
      agency: "A",
      expiration_date: "2028-01-01",
      project_id: w.seenProjectId,
      guarantee_type: "Performance",
      surety_id: foreign.surety_id,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ surety_id: "Surety not found in this company." });
  });

  it("refuses to rewrite the amount once the ledger exists, and opens the ledger when an amount is first set", async () => {
    const bond = await newBond();
    const base = (await w.admin.get(`/api/permits/${bond.id}`)).json();
    const form = {
      permit_number: base.permit_number,
      permit_name: base.permit_name,
      record_type: "bond",
      agency: base.agency,
      issue_date: base.issue_date,
      expiration_date: base.expiration_date,
      project_id: base.project_id,
      bond_amount: base.bond_amount,
      surety_id: base.surety_id,
      guarantee_type: "Performance",
    };
    const changed = await w.admin.put(`/api/permits/${bond.id}`, { ...form, bond_amount: "120000" });
    expect(changed.statusCode).toBe(400);
    expect(changed.json().fields.bond_amount).toMatch(/record a Rider/);
    const toPermit = await w.admin.put(`/api/permits/${bond.id}`, { ...form, record_type: "permit" });
    expect(toPermit.statusCode).toBe(400);
    expect(toPermit.json().fields.record_type).toMatch(/ledger/);
    // Other fields still save; "100,000" is the same amount.
    const renamed = await w.admin.put(`/api/permits/${bond.id}`, {
      ...form,
      bond_amount: "100,000",
      permit_name: "Renamed",
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await ledgerOf(bond.id)).entries).toHaveLength(1);

    const empty = await newBond({ bond_amount: null });
    expect((await ledgerOf(empty.id)).entries).toHaveLength(0);
    expect((await ledgerOf(empty.id)).can.rider).toBe(false);
    expect((await post(empty.id, rider("5"))).statusCode).toBe(409);
    const set = await w.admin.put(`/api/permits/${empty.id}`, {
      ...form,
      permit_number: "B-late",
      bond_amount: "5000",
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({
      bond_amount: "5000.00",
      current_amount: "5000.00",
      bond_status: "active",
    });
    expect((await ledgerOf(empty.id)).entries).toMatchObject([{ kind: "original", change: "5000.00" }]);
  });
});

describe("the ledger", () => {
  it("runs riders up and down, a percent reduction and a release, keeping the bond's amount in step", async () => {
    const bond = await newBond();
    await ok(bond.id, rider("25000"));
    await ok(bond.id, rider("-5000.50", "2026-03-01"));
    let l = await ok(bond.id, {
      kind: "reduction",
      percent: "50",
      effective_date: "2026-04-01",
      obligee_acceptance_date: "2026-03-28",
    });
    expect(l.status).toBe("reduced");
    expect(l.current_amount).toBe("59999.75");
    expect(l.entries.at(-1)).toMatchObject({
      kind: "reduction",
      change: "-59999.75",
      amount_after: "59999.75",
      percent: "50.00",
      obligee_acceptance_date: "2026-03-28",
    });
    l = await ok(bond.id, {
      kind: "reduction",
      amount: "9999.75",
      effective_date: "2026-04-15",
      obligee_acceptance_date: "2026-04-15",
    });
    expect(l.current_amount).toBe("50000.00");
    l = await ok(bond.id, { kind: "release", effective_date: "2026-05-01" });
    expect(l).toMatchObject({ status: "released", current_amount: "0.00", original_amount: "100000.00" });
    expect(l.entries.map((e) => [e.kind, e.change, e.amount_after])).toEqual([
      ["original", "100000.00", "100000.00"],
      ["rider", "25000.00", "125000.00"],
      ["rider", "-5000.50", "119999.50"],
      ["reduction", "-59999.75", "59999.75"],
      ["reduction", "-9999.75", "50000.00"],
      ["release", "-50000.00", "0.00"],
    ]);
    const r = await row(bond.id);
    expect(r).toMatchObject({
      currentAmount: "0.00",
      bondStatus: "released",
      closeDate: "2026-05-01",
      finalStatus: "Completed",
    });
    // Every entry is audited on the permit's trail.
    const audit = await t.db
      .select()
      .from(permitAudit)
      .where(and(eq(permitAudit.permitId, bond.id), eq(permitAudit.field, "bond_ledger")));
    expect(audit).toHaveLength(6);
    // Closed: nothing but a reversal of the release.
    const closed = await post(bond.id, rider("1", "2026-06-01"));
    expect(closed.statusCode).toBe(409);
    expect(closed.json().message).toMatch(/released/);
    expect(l.can).toMatchObject({ rider: false, reduction: false, release: false, reverse: true });
    expect(l.entries.filter((e) => e.can_reverse).map((e) => e.kind)).toEqual(["release"]);
  });

  it("reverses an entry once, not a reversal nor the original, and a reversed release reopens the bond", async () => {
    const bond = await newBond();
    let l = await ok(bond.id, {
      kind: "reduction",
      amount: "40000",
      effective_date: "2026-02-01",
      obligee_acceptance_date: "2026-02-01",
    });
    const reduction = l.entries.at(-1)!;
    l = await ok(bond.id, {
      kind: "reversal",
      reverses_id: reduction.id,
      effective_date: "2026-02-02",
      reason: "Entered on the wrong bond",
    });
    expect(l).toMatchObject({ status: "active", current_amount: "100000.00" });
    const reversal = l.entries.at(-1)!;
    expect(reversal).toMatchObject({ kind: "reversal", change: "40000.00", reverses_id: reduction.id });
    expect(l.entries.find((e) => e.id === reduction.id)).toMatchObject({
      reversed_by_id: reversal.id,
      can_reverse: false,
    });
    const twice = await post(bond.id, {
      kind: "reversal",
      reverses_id: reduction.id,
      effective_date: "2026-02-03",
      reason: "x",
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe("This entry was already reversed.");
    const ofReversal = await post(bond.id, {
      kind: "reversal",
      reverses_id: reversal.id,
      effective_date: "2026-02-03",
      reason: "x",
    });
    expect(ofReversal.statusCode).toBe(409);
    const original = await post(bond.id, {
      kind: "reversal",
      reverses_id: l.entries[0]!.id,
      effective_date: "2026-02-03",
      reason: "x",
    });
    expect(original.statusCode).toBe(409);
    const unknown = await post(bond.id, {
      kind: "reversal",
      reverses_id: t.make.uuid(),
      effective_date: "2026-02-03",
      reason: "x",
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fields).toHaveProperty("reverses_id");

    l = await ok(bond.id, { kind: "release", effective_date: "2026-03-01" });
    const release = l.entries.at(-1)!;
    l = await ok(bond.id, {
      kind: "reversal",
      reverses_id: release.id,
      effective_date: "2026-03-02",
      reason: "Released too early",
    });
    expect(l).toMatchObject({ status: "active", current_amount: "100000.00" });
    expect(await row(bond.id)).toMatchObject({ closeDate: null, finalStatus: null, bondStatus: "active" });
    // Cancellation and claim.
    l = await ok(bond.id, { kind: "claim", effective_date: "2026-04-01", reason: "Subcontractor unpaid" });
    expect(l).toMatchObject({ status: "claimed", current_amount: "100000.00" });
    expect((await post(bond.id, rider("1", "2026-04-02"))).statusCode).toBe(409);
    l = await ok(bond.id, { kind: "cancellation", effective_date: "2026-05-01", reason: "Claim settled" });
    expect(l).toMatchObject({ status: "cancelled", current_amount: "0.00" });
    expect(await row(bond.id)).toMatchObject({ finalStatus: "Cancelled", closeDate: "2026-05-01" });
  });

  it("answers 400 with field messages for bad input and never goes below 0, writing nothing", async () => {
    const bond = await newBond();
    const cases: [object, string][] = [
      [{ kind: "rider", change: "-100000.01", effective_date: "2026-02-01", reason: "x" }, "change"],
      [{ kind: "rider", change: "0", effective_date: "2026-02-01", reason: "x" }, "change"],
      [{ kind: "rider", change: "1.234", effective_date: "2026-02-01", reason: "x" }, "change"],
      [{ kind: "rider", change: "5", effective_date: "2026-02-30", reason: "x" }, "effective_date"],
      [{ kind: "rider", change: "5", effective_date: "2026-02-01" }, "reason"],
      [{ kind: "rider", change: "5", effective_date: "2025-12-31", reason: "x" }, "effective_date"],
      [{ kind: "reduction", effective_date: "2026-02-01", obligee_acceptance_date: "2026-02-01" }, "amount"],
      [
        {
          kind: "reduction",
          amount: "5",
          percent: "5",
          effective_date: "2026-02-01",
          obligee_acceptance_date: "2026-02-01",
        },
        "amount",
      ],
      [
        {
          kind: "reduction",
          percent: "100",
          effective_date: "2026-02-01",
          obligee_acceptance_date: "2026-02-01",
        },
        "percent",
      ],
      [
        {
          kind: "reduction",
          amount: "100000",
          effective_date: "2026-02-01",
          obligee_acceptance_date: "2026-02-01",
        },
        "amount",
      ],
      [{ kind: "reduction", amount: "5", effective_date: "2026-02-01" }, "obligee_acceptance_date"],
      [{ kind: "release", effective_date: "2026-02-01", document_id: t.make.uuid() }, "document_id"],
      [{ kind: "bogus", effective_date: "2026-02-01" }, "kind"],
    ];
    for (const [body, field] of cases) {
      const res = await post(bond.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields, JSON.stringify(body)).toHaveProperty(field);
    }
    expect((await ledgerOf(bond.id)).entries).toHaveLength(1);
    expect((await row(bond.id)).currentAmount).toBe("100000.00");
    // A rider down to exactly 0 is allowed; a document must be a file of this bond.
    const [doc] = await t.db
      .insert(attachments)
      .values({
        permitId: bond.id,
        companyId: w.companyId,
        filename: "rider-1.pdf",
        storageKey: "k/1",
        contentType: "application/pdf",
        size: 1,
        kind: "ledger_document",
      })
      .returning();
    const l = await ok(bond.id, { ...rider("-100000"), document_id: doc!.id });
    expect(l.current_amount).toBe("0.00");
    expect(l.entries.at(-1)!.document).toEqual({ id: doc!.id, name: "rider-1.pdf" });
    const other = await newBond();
    const wrongDoc = await post(other.id, { ...rider("5"), document_id: doc!.id });
    expect(wrongDoc.statusCode).toBe(400);
  });

  it("is append-only in the database: no UPDATE or DELETE, but the bond's delete takes its ledger along", async () => {
    const bond = await newBond();
    await ok(bond.id, rider("10"));
    expect(
      await failure(sql`update bond_ledger_entries set change = 1 where permit_id = ${bond.id}`),
    ).toMatch(/append-only/);
    expect(await failure(sql`delete from bond_ledger_entries where permit_id = ${bond.id}`)).toMatch(
      /append-only/,
    );
    // A document deleted with its row (the foreign key's set null) is the one update allowed.
    const [doc] = await t.db
      .insert(attachments)
      .values({
        permitId: bond.id,
        companyId: w.companyId,
        filename: "r.pdf",
        storageKey: "k/2",
        contentType: "application/pdf",
        size: 1,
        kind: "ledger_document",
      })
      .returning();
    await ok(bond.id, { ...rider("10"), document_id: doc!.id });
    await t.db.delete(attachments).where(eq(attachments.id, doc!.id));
    expect((await ledgerOf(bond.id)).entries.at(-1)!.document).toBeNull();
    expect((await w.admin.delete(`/api/permits/${bond.id}`)).statusCode).toBe(204);
    expect(
      await t.db.select().from(bondLedgerEntries).where(eq(bondLedgerEntries.permitId, bond.id)),
    ).toEqual([]);
  });
});

describe("a ledger entry's document", () => {
  const uploadDocument = (bondId: string, api: ApiClient = w.admin, filename = "rider-2.pdf") =>
    api.request({
      method: "POST",
      url: `/api/bonds/${bondId}/documents`,
      ...multipart([{ name: "file", filename, contentType: "application/pdf", content: "%PDF-1.4 rider" }]),
    });
  const filesOf = async (id: string) =>
    (
      (await w.admin.get(`/api/permits/${id}/attachments?include_archived=true`)).json().attachments as {
        filename: string;
        archived: boolean;
      }[]
    ).map((a) => [a.filename, a.archived]);

  it("is its own kind of attachment: shown on its ledger row, not among the bond's files, archiving none", async () => {
    const bond = await newBond();
    const file = await w.admin.request({
      method: "POST",
      url: `/api/permits/${bond.id}/attachments`,
      ...multipart([
        { name: "file", filename: "bond.pdf", contentType: "application/pdf", content: "%PDF-1.4 bond" },
      ]),
    });
    expect(file.statusCode, file.body).toBe(201);
    const doc = await uploadDocument(bond.id);
    expect(doc.statusCode, doc.body).toBe(201);
    const documentId = doc.json().attachment.id as string;
    const ledger = await ok(bond.id, { ...rider("2500"), document_id: documentId });
    expect(ledger.entries.at(-1)!.document).toEqual({ id: documentId, name: "rider-2.pdf" });
    // The bond's own file stays current, and its file history knows nothing of the document.
    expect(await filesOf(bond.id)).toEqual([["bond.pdf", false]]);
    // The bond's own file is not a ledger document.
    const fileId = file.json().attachment.id as string;
    const asDocument = await post(bond.id, { ...rider("1"), document_id: fileId });
    expect(asDocument.statusCode).toBe(400);
    expect(asDocument.json().fields.document_id).toBe("Choose a file attached to this bond");
    const download = await w.admin.get(`/api/attachments/${documentId}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe("%PDF-1.4 rider");
  });

  it("is uploaded by whoever may write the ledger: a client-user 403, another company 404, a permit 404, no file 400", async () => {
    const bond = await newBond();
    expect((await uploadDocument(bond.id, w.clientUser)).statusCode).toBe(403);
    const otherAdmin = await t.signIn(
      await t.make.user({ role: "company-admin", companyId: w.otherCompanyId }),
    );
    expect((await uploadDocument(bond.id, otherAdmin)).statusCode).toBe(404);
    expect((await uploadDocument(w.permitId)).statusCode).toBe(404);
    const empty = await w.admin.request({
      method: "POST",
      url: `/api/bonds/${bond.id}/documents`,
      ...multipart([{ name: "note", content: "no file" }]),
    });
    expect(empty.statusCode).toBe(400);
    expect(await filesOf(bond.id)).toEqual([]);
  });
});

describe("collateral", () => {
  it("is recorded by staff and released only with or after the bond's release", async () => {
    const bond = await newBond();
    let res = await w.user.post(`/api/bonds/${bond.id}/collateral`, {
      form: "letter_of_credit",
      amount: "25,000",
      held_since: "2026-01-10",
      note: "LC 123",
    });
    expect(res.statusCode, res.body).toBe(200);
    let l = res.json() as BondLedger;
    expect(l.collateral).toMatchObject([
      { form: "letter_of_credit", amount: "25000.00", released_on: null, can_release: false },
    ]);
    expect(l.collateral_held).toBe("25000.00");
    const cid = l.collateral![0]!.id;
    const bad = await w.user.post(`/api/bonds/${bond.id}/collateral`, {
      form: "gold",
      amount: "-1",
      held_since: "",
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(["amount", "form", "held_since"]);

    const early = await w.user.patch(`/api/bonds/${bond.id}/collateral/${cid}`, {
      released_on: "2026-03-01",
    });
    expect(early.statusCode).toBe(409);
    await ok(bond.id, { kind: "release", effective_date: "2026-04-01" });
    const before = await w.user.patch(`/api/bonds/${bond.id}/collateral/${cid}`, {
      released_on: "2026-03-31",
    });
    expect(before.statusCode).toBe(400);
    expect(before.json().fields).toHaveProperty("released_on");
    // A closed bond takes no new collateral.
    expect(
      (
        await w.user.post(`/api/bonds/${bond.id}/collateral`, {
          form: "cash",
          amount: "1",
          held_since: "2026-01-10",
        })
      ).statusCode,
    ).toBe(409);
    res = await w.user.patch(`/api/bonds/${bond.id}/collateral/${cid}`, { released_on: "2026-04-10" });
    expect(res.statusCode, res.body).toBe(200);
    l = res.json();
    expect(l.collateral![0]).toMatchObject({ released_on: "2026-04-10", can_release: false });
    expect(l.collateral_held).toBe("0.00");
    expect(
      (await w.user.patch(`/api/bonds/${bond.id}/collateral/${cid}`, { released_on: "2026-04-11" }))
        .statusCode,
    ).toBe(409);
    // Its release cannot be reversed now that the collateral is back.
    const release = l.entries.at(-1)!;
    expect(
      (
        await post(bond.id, {
          kind: "reversal",
          reverses_id: release.id,
          effective_date: "2026-05-01",
          reason: "x",
        })
      ).statusCode,
    ).toBe(409);
    // Another bond's collateral id answers 404.
    const other = await newBond();
    expect(
      (await w.user.patch(`/api/bonds/${other.id}/collateral/${cid}`, { released_on: "2026-04-10" }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.db.select().from(bondCollateral).where(eq(bondCollateral.permitId, other.id))).length,
    ).toBe(0);
  });
});

describe("'Start Maintenance Bond'", () => {
  it("creates the linked maintenance bond with its own original entry, once per performance bond", async () => {
    const perf = await newBond({ bond_number: "PB-77", surety_company: "Linked Surety" });
    const res = await w.user.post(`/api/bonds/${perf.id}/maintenance-bond`, {
      amount: "10000",
      term_months: 24,
      start_date: "2026-09-15",
      bond_number: "MB-77",
    });
    expect(res.statusCode, res.body).toBe(201);
    const m = res.json() as BondLedger;
    expect(m).toMatchObject({
      guarantee_type: "Maintenance",
      bond_number: "MB-77",
      status: "active",
      original_amount: "10000.00",
      current_amount: "10000.00",
      surety: { id: perf.surety_id, name: "Linked Surety" },
      performance_bond: { id: perf.id, bond_number: "PB-77" },
      maintenance_bond: null,
    });
    expect(m.entries).toMatchObject([{ kind: "original", change: "10000.00", effective_date: "2026-09-15" }]);
    expect(await row(m.id)).toMatchObject({
      maintenanceOfId: perf.id,
      issueDate: "2026-09-15",
      expirationDate: "2028-09-15",
      projectId: w.seenProjectId,
      agency: "City of Springfield",
      clientId: w.seenClientId,
    });
    const p = await ledgerOf(perf.id);
    expect(p.maintenance_bond).toMatchObject({ id: m.id, bond_number: "MB-77", current_amount: "10000.00" });
    expect(p.can.start_maintenance_bond).toBe(false);
    // The client-user sees the link both ways.
    expect((await ledgerOf(m.id, w.clientUser)).performance_bond?.id).toBe(perf.id);

    const again = await w.user.post(`/api/bonds/${perf.id}/maintenance-bond`, {
      amount: "1",
      term_months: 12,
    });
    expect(again.statusCode).toBe(409);
    const onMaintenance = await w.user.post(`/api/bonds/${m.id}/maintenance-bond`, {
      amount: "1",
      term_months: 12,
    });
    expect(onMaintenance.statusCode).toBe(409);
    const bad = await w.user.post(`/api/bonds/${perf.id}/maintenance-bond`, {
      amount: "",
      term_months: 0,
      start_date: "x",
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(["amount", "start_date", "term_months"]);
    // Today in the company's zone when no start date is given.
    const perf2 = await newBond();
    const m2 = (
      await w.admin.post(`/api/bonds/${perf2.id}/maintenance-bond`, { amount: "500", term_months: 12 })
    ).json();
    expect((await row(m2.id)).issueDate).toBe(todayIn(w.company.timeZone));
  });
});

describe("renewal and reminders", () => {
  afterEach(() => quiesce(t.db));

  it("renews a bond's term through the lifecycle, keeping its ledger", async () => {
    const bond = await newBond();
    const res = await w.user.post(`/api/permits/${bond.id}/renewals`, {
      new_expiration_date: "2029-06-30",
      note: "Continuation certificate",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().term_no).toBe(2);
    const l = await ledgerOf(bond.id);
    expect(l).toMatchObject({ status: "active", current_amount: "100000.00" });
  });

  it("closes an open bond only through its ledger: 'Close Permit' answers 409 and is not offered", async () => {
    const bond = await newBond();
    const lifecycle = async () => (await w.user.get(`/api/permits/${bond.id}/lifecycle`)).json();
    expect((await lifecycle()).can.close).toBe(false);
    const refused = await w.user.post(`/api/permits/${bond.id}/close`, {
      close_date: "2026-06-01",
      final_status: "Completed",
    });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toMatch(/Bond Ledger: record a Release or a Cancellation/);
    const [row] = await t.db.select().from(permits).where(eq(permits.id, bond.id));
    expect(row).toMatchObject({ closeDate: null, bondStatus: "active", currentAmount: "100000.00" });
    // A bond without a ledger (no amount) is not exposure: it closes like a permit.
    const unpriced = await newBond({ bond_amount: null });
    expect((await w.user.get(`/api/permits/${unpriced.id}/lifecycle`)).json().can.close).toBe(true);
    const closed = await w.user.post(`/api/permits/${unpriced.id}/close`, {
      close_date: "2026-06-01",
      final_status: "Completed",
    });
    expect(closed.statusCode, closed.body).toBe(200);
  });

  it("sends a bond's reminders and escalation like a permit's; a released bond gets none", async () => {
    const asOf = today();
    const co = await reminderCompany(t, { escalationDays: 7 });
    const admin = await t.signIn(co.recipients[0]!);
    const make = async (number: string) => {
      const res = await admin.post("/api/permits", {
        permit_number: number,
        permit_name: number,
        record_type: "bond",
        agency: "County",
        issue_date: addDays(asOf, -100),
        expiration_date: addDays(asOf, 5),
        project_id: co.project.id,
        bond_amount: "1000",
        guarantee_type: "Performance",
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    const open = await make("OPEN-1");
    const released = await make("REL-1");
    expect(
      (await admin.post(`/api/bonds/${released}/ledger`, { kind: "release", effective_date: asOf }))
        .statusCode,
    ).toBe(200);
    await sweepDueReminders(t.db, { now: new Date(), asOf, reminderHour: 0 });
    const kinds = async (id: string) =>
      (await t.db.select().from(reminderDeliveries).where(eq(reminderDeliveries.permitId, id))).map(
        (d) => `${d.kind}:${d.threshold}`,
      );
    expect((await kinds(open)).sort()).toEqual(["escalation:7", "reminder:7"]);
    expect(await kinds(released)).toEqual([]);
  });
});

describe("sureties in use", () => {
  it("counts bonds per surety for admins", async () => {
    const bond = await newBond({ surety_company: "Counted Surety" });
    const list = (await w.admin.get("/api/sureties")).json();
    const s = list.sureties.find((x: { id: string }) => x.id === bond.surety_id);
    expect(s).toMatchObject({ name: "Counted Surety", bond_count: 1, open_exposure: "100000.00" });
    const [db] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from ${sureties} where company_id = ${w.companyId} and lower(name) = 'counted surety'`,
    );
    expect(db!.n).toBe(1);
  });
});

describe("the company's currency", () => {
  it("is USD by default, set by a super-admin in the company form and by a company admin in the settings", async () => {
    const company = (await w.superAdmin.get(`/api/companies/${w.companyId}`)).json();
    expect(company.company?.currency ?? company.currency).toBe("USD");
    const form = { name: w.company.name, slug: w.company.slug, timeZone: w.company.timeZone };
    const bad = await w.superAdmin.put(`/api/companies/${w.companyId}`, { ...form, currency: "EURO" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ currency: "Currency must be a 3-letter ISO 4217 code (e.g. USD)" });
    const set = await w.superAdmin.put(`/api/companies/${w.companyId}`, { ...form, currency: "cad" });
    expect(set.statusCode, set.body).toBe(200);
    const bond = await newBond();
    expect((await ledgerOf(bond.id)).currency).toBe("CAD");
    // Left out, it stays.
    expect((await w.superAdmin.put(`/api/companies/${w.companyId}`, form)).statusCode).toBe(200);
    expect((await ledgerOf(bond.id)).currency).toBe("CAD");

    const settings = (await w.admin.get("/api/notifications/settings")).json();
    expect(settings.currency).toBe("CAD");
    const body = {
      email30Day: settings.email30Day,
      email7Day: settings.email7Day,
      email1Day: settings.email1Day,
      recipientUserIds: settings.users
        .filter((u: { receivesReminders: boolean }) => u.receivesReminders)
        .map((u: { id: string }) => u.id),
    };
    expect((await w.admin.put("/api/notifications/settings", { ...body, currency: "US" })).statusCode).toBe(
      400,
    );
    const saved = await w.admin.put("/api/notifications/settings", { ...body, currency: "USD" });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await ledgerOf(bond.id)).currency).toBe("USD");
    expect((await w.user.put("/api/notifications/settings", { ...body, currency: "EUR" })).statusCode).toBe(
      403,
    );
  });
});
