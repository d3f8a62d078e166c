import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Actor } from "../../access/actor.ts";
import { bondCollateral, permitAudit } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";
import { recordPermitAudit } from "../../audit/audit-writer.ts";

const t = useTestContext();

const w = useWorld(t, { permits: true });

const actor = (over: Partial<Actor> = {}): Actor => ({
  userId: t.make.uuid(),
  sessionId: "s",
  role: "company-admin",
  companyId: w.companyId,
  email: "a@example.com",
  name: "Dana Whitfield",
  clientIds: [],
  mustResetPassword: false,
  twoFactorSetupRequired: false,
  impersonatorId: null,
  impersonatorName: null,
  impersonatorEmail: null,
  ...over,
});

describe("GET /api/permits/:id/audit", () => {
  it("requires sign-in", async () => {
    expect((await t.anonymous.get(`/api/permits/${w.permitId}/audit`)).statusCode).toBe(401);
  });

  it("answers 404 for another company's permit, a client-user's invisible permit and an unknown id", async () => {
    await recordPermitAudit(
      t.db,
      actor({ companyId: w.otherCompanyId }),
      { id: w.foreignPermitId, companyId: w.otherCompanyId },
      [{ action: "create" }],
    );
    expect((await w.user.get(`/api/permits/${w.foreignPermitId}/audit`)).statusCode).toBe(404);
    expect((await w.clientUser.get(`/api/permits/${w.hiddenPermitId}/audit`)).statusCode).toBe(404);
    expect((await w.user.get(`/api/permits/${t.make.uuid()}/audit`)).statusCode).toBe(404);
    expect((await w.user.get("/api/permits/nope/audit")).statusCode).toBe(400);
    // a super-admin sees every company
    const all = await w.superAdmin.get(`/api/permits/${w.foreignPermitId}/audit`);
    expect(all.statusCode).toBe(200);
    expect(all.json().entries).toHaveLength(1);
  });

  it("lists entries newest first with the user and the impersonator", async () => {
    const permit = { id: w.permitId, companyId: w.companyId };
    await recordPermitAudit(t.db, actor(), permit, [{ action: "create" }]);
    await recordPermitAudit(
      t.db,
      actor({ name: "Sam Baker", impersonatorId: t.make.uuid(), impersonatorName: "Avery Stone" }),
      permit,
      [{ action: "update", field: "agency", oldValue: "City", newValue: "County" }],
    );
    await recordPermitAudit(t.db, actor(), permit, [
      { action: "archive", field: "attachment", oldValue: "old.pdf" },
      { action: "upload", field: "attachment", newValue: "new.pdf" },
    ]);
    const res = await w.user.get(`/api/permits/${w.permitId}/audit`);
    expect(res.statusCode).toBe(200);
    const entries = res.json().entries;
    expect(entries.map((e: { action: string }) => e.action)).toEqual([
      "upload",
      "archive",
      "update",
      "create",
    ]);
    expect(entries[2]).toMatchObject({
      field: "agency",
      oldValue: "City",
      newValue: "County",
      userName: "Sam Baker",
      impersonatorName: "Avery Stone",
    });
    expect(entries[3]).toMatchObject({ field: null, oldValue: null, newValue: null, impersonatorName: null });
    expect(Object.keys(entries[0]).sort()).toEqual(
      [
        "action",
        "field",
        "id",
        "impersonatorName",
        "internal",
        "newName",
        "newValue",
        "oldName",
        "oldValue",
        "source",
        "timestamp",
        "userName",
      ].sort(),
    );
  });

  it("withholds internal comments' entries from a client-user", async () => {
    const internal = await w.user.post(`/api/permits/${w.permitId}/comments`, {
      text: "Internal: fee dispute",
      isInternal: true,
    });
    expect(internal.statusCode).toBe(201);
    expect(
      (await w.user.post(`/api/permits/${w.permitId}/comments`, { text: "Visible note" })).statusCode,
    ).toBe(201);

    const staff = (await w.user.get(`/api/permits/${w.permitId}/audit`)).json().entries as {
      newValue: string | null;
      internal: boolean;
    }[];
    expect(staff.map((e) => e.newValue)).toEqual(
      expect.arrayContaining(["Internal: fee dispute", "Visible note"]),
    );
    expect(staff.find((e) => e.newValue === "Internal: fee dispute")!.internal).toBe(true);
    expect(staff.find((e) => e.newValue === "Visible note")!.internal).toBe(false);

    const client = await w.clientUser.get(`/api/permits/${w.permitId}/audit`);
    expect(client.statusCode).toBe(200);
    const values = (client.json().entries as { newValue: string | null }[]).map((e) => e.newValue);
    expect(values).toContain("Visible note");
    expect(values).not.toContain("Internal: fee dispute");
    expect(client.json().entries).toHaveLength(staff.length - 1);
  });
});

describe("internal notes in the audit trail (issue 25)", () => {
  it("withholds entries flagged internal, and those written before the flag by their kind", async () => {
    const permit = await t.make.permit({ companyId: w.companyId, clientId: w.seenClientId });
    const ref = { id: permit.id, companyId: w.companyId };
    await recordPermitAudit(t.db, actor(), ref, [
      { action: "renew", field: "note", newValue: "Flagged internal note", internal: true },
      { action: "renew", field: "note", newValue: "Flagged shown note", internal: false },
      { action: "renew", field: "renewal_fee", newValue: "4321.09", internal: true },
      { action: "extend", field: "reason", newValue: "Flagged shown reason" },
    ]);
    // Entries as they were written before migration 0013: no flag (audit rows are never updated).
    const legacy = (field: string, action: string, newValue: string) => ({
      companyId: w.companyId,
      permitId: permit.id,
      userName: "Dana Whitfield",
      action,
      field,
      newValue,
    });
    await t.db
      .insert(permitAudit)
      .values([
        legacy("note", "renew", "Legacy note"),
        legacy("renewal_fee", "renew", "1234.56"),
        legacy("reason", "extend", "Legacy reason"),
        legacy("expiration_date", "renew", "2031-01-01"),
        legacy("internal comment", "comment", "Legacy internal comment"),
        legacy("comment", "comment", "Legacy comment"),
      ]);
    const hidden = [
      "Flagged internal note",
      "4321.09",
      "Legacy note",
      "1234.56",
      "Legacy reason",
      "Legacy internal comment",
    ];
    const shown = ["Flagged shown note", "Flagged shown reason", "2031-01-01", "Legacy comment"];

    type Entry = { newValue: string | null; internal: boolean };
    for (const staff of [w.user, w.admin, w.superAdmin]) {
      const entries = (await staff.get(`/api/permits/${permit.id}/audit`)).json().entries as Entry[];
      const internalOf = new Map(entries.map((e) => [e.newValue, e.internal]));
      for (const v of hidden) expect(internalOf.get(v), v).toBe(true);
      for (const v of shown) expect(internalOf.get(v), v).toBe(false);
    }
    const client = await w.clientUser.get(`/api/permits/${permit.id}/audit`);
    expect(client.statusCode).toBe(200);
    const values = (client.json().entries as Entry[]).map((e) => e.newValue);
    expect(values.sort()).toEqual([...shown].sort());
    for (const v of hidden) expect(client.body).not.toContain(v);
    expect((client.json().entries as Entry[]).every((e) => !e.internal)).toBe(true);
  });
});

describe("a bond's collateral in its audit trail", () => {
  it("is read by staff and withheld from a client-user, in added and released entries alike", async () => {
    const project = await t.make.project({ companyId: w.companyId, clientId: w.seenClientId });
    const created = await w.admin.post("/api/permits", {
      permit_number: "B-COLLATERAL",
      permit_name: "Collateral bond",
      record_type: "bond",
      agency: "City of Springfield",
      issue_date: "2026-01-05",
      expiration_date: "2028-06-30",
      project_id: project.id,
      bond_amount: "100000",
      surety_company: "Acme Surety",
      guarantee_type: "Performance",
    });
    expect(created.statusCode, created.body).toBe(201);
    const bondId = (created.json() as { id: string }).id;
    const added = await w.user.post(`/api/bonds/${bondId}/collateral`, {
      form: "letter_of_credit",
      amount: "77777.77",
      held_since: "2026-01-15",
      note: "Irrevocable, First Bank",
    });
    expect(added.statusCode, added.body).toBe(200);
    const released = await w.user.post(`/api/bonds/${bondId}/ledger`, {
      kind: "release",
      effective_date: "2026-04-01",
    });
    expect(released.statusCode, released.body).toBe(200);
    const [held] = await t.db
      .select({ id: bondCollateral.id })
      .from(bondCollateral)
      .where(eq(bondCollateral.permitId, bondId));
    const back = await w.user.patch(`/api/bonds/${bondId}/collateral/${held!.id}`, {
      released_on: "2026-04-10",
    });
    expect(back.statusCode, back.body).toBe(200);

    type Entry = { action: string; field: string | null; oldValue: string | null; newValue: string | null };
    const text = "Letter of Credit 77777.77 held since 2026-01-15";
    for (const staff of [w.user, w.admin, w.superAdmin]) {
      const res = await staff.get(`/api/permits/${bondId}/audit`);
      expect(res.statusCode).toBe(200);
      const entries = res.json().entries as Entry[];
      expect(entries.filter((e) => e.action === "collateral")).toEqual([
        expect.objectContaining({ field: "collateral_released", oldValue: text, newValue: "2026-04-10" }),
        expect.objectContaining({ field: "collateral", oldValue: null, newValue: text }),
      ]);
    }

    const staffCount = (await w.user.get(`/api/permits/${bondId}/audit`)).json().entries.length as number;
    const client = await w.clientUser.get(`/api/permits/${bondId}/audit`);
    expect(client.statusCode).toBe(200);
    const entries = client.json().entries as Entry[];
    expect(entries.map((e) => e.action)).not.toContain("collateral");
    // The rest of the trail (the bond's creation, its release) is still there.
    expect(entries).toHaveLength(staffCount - 2);
    expect(entries.length).toBeGreaterThan(0);
    for (const marker of ["77777.77", "Letter of Credit", "2026-01-15", "Irrevocable"])
      expect(client.body).not.toContain(marker);
  });
});

describe("the audit trail is append-only", () => {
  it("refuses UPDATE and DELETE in the database itself", async () => {
    const [row] = await t.db.select().from(permitAudit).where(eq(permitAudit.permitId, w.permitId)).limit(1);
    await expect(
      t.db.update(permitAudit).set({ newValue: "tampered" }).where(eq(permitAudit.id, row!.id)),
    ).rejects.toThrow();
    await expect(t.db.delete(permitAudit).where(eq(permitAudit.id, row!.id))).rejects.toThrow();
    const [after] = await t.db.select().from(permitAudit).where(eq(permitAudit.id, row!.id));
    expect(after).toEqual(row);
  });

  it("offers no route that changes an entry", async () => {
    const [row] = await t.db.select().from(permitAudit).where(eq(permitAudit.permitId, w.permitId)).limit(1);
    for (const res of [
      await w.user.put(`/api/permits/${w.permitId}/audit`, { entries: [] }),
      await w.user.patch(`/api/permits/${w.permitId}/audit/${row!.id}`, { newValue: "x" }),
      await w.user.delete(`/api/permits/${w.permitId}/audit/${row!.id}`),
    ]) {
      expect(res.statusCode).toBe(404);
    }
  });
});
