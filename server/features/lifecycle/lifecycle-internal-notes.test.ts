import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { permitAudit, permitInspections, permitTerms, type permits } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";

/*
 * Issue 25, item 4: a renewal's fee and note, an extension's reason and an inspection's notes each
 * have an 'Internal' switch, as a comment has: staff read them with their flag, a client-user gets
 * null in their place (and the flag false). The fee is internal unless the switch is turned off;
 * the notes and reasons are shown unless it is turned on, as a comment.
 */

const t = useTestContext();
const w = useWorld(t, { permits: true });
const today = () => todayIn("UTC");

const openPermit = (over: Partial<typeof permits.$inferInsert> = {}) =>
  t.make.permit({
    companyId: w.companyId,
    clientId: w.seenClientId,
    expirationDate: addDays(today(), 20),
    ...over,
  });

type Term = {
  kind: string;
  renewal_fee: string | null;
  renewal_fee_internal: boolean;
  note: string | null;
  note_internal: boolean;
  reason: string | null;
  reason_internal: boolean;
  extensions: { reason: string | null; reason_internal: boolean }[];
};
type Inspection = { inspection_type: string; notes: string | null; notes_internal: boolean };
type Life = { terms: Term[]; inspections: Inspection[] };

const lifecycleAs = async (api: typeof w.admin, id: string) => {
  const res = await api.get(`/api/permits/${id}/lifecycle`);
  expect(res.statusCode, res.body).toBe(200);
  return { life: res.json() as Life, body: res.body };
};

describe("a renewal's fee and note", () => {
  it("keep the fee internal and the note shown by default", async () => {
    const p = await openPermit();
    const res = await w.user.post(`/api/permits/${p.id}/renewals`, {
      new_expiration_date: "2031-06-30",
      renewal_fee: "4321.09",
      note: "Paid at the counter",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().terms[1]).toMatchObject({
      renewal_fee: "4321.09",
      renewal_fee_internal: true,
      note: "Paid at the counter",
      note_internal: false,
    });

    const { life, body } = await lifecycleAs(w.clientUser, p.id);
    expect(life.terms[1]).toMatchObject({
      renewal_fee: null,
      renewal_fee_internal: false,
      note: "Paid at the counter",
      note_internal: false,
    });
    expect(body).not.toContain("4321.09");
    // A term without a fee or note has no internal one.
    expect(life.terms[0]).toMatchObject({ renewal_fee_internal: false, note_internal: false });
  });

  it("follow the switches: an internal note, a shown fee", async () => {
    const p = await openPermit();
    const res = await w.admin.post(`/api/permits/${p.id}/renewals`, {
      new_expiration_date: "2031-06-30",
      renewal_fee: "250",
      renewal_fee_internal: false,
      note: "Agency clerk was difficult",
      note_internal: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    for (const staff of [w.user, w.admin, w.superAdmin]) {
      const { life } = await lifecycleAs(staff, p.id);
      expect(life.terms[1]).toMatchObject({
        renewal_fee: "250.00",
        renewal_fee_internal: false,
        note: "Agency clerk was difficult",
        note_internal: true,
      });
    }
    const { life, body } = await lifecycleAs(w.clientUser, p.id);
    expect(life.terms[1]).toMatchObject({ renewal_fee: "250.00", note: null, note_internal: false });
    expect(body).not.toContain("Agency clerk");

    const audit = await t.db
      .select({ field: permitAudit.field, internal: permitAudit.internal })
      .from(permitAudit)
      .where(and(eq(permitAudit.permitId, p.id), eq(permitAudit.action, "renew")));
    expect(Object.fromEntries(audit.map((a) => [a.field, a.internal]))).toMatchObject({
      note: true,
      renewal_fee: false,
      term: false,
      expiration_date: false,
    });
    const clientAudit = await w.clientUser.get(`/api/permits/${p.id}/audit`);
    expect(clientAudit.statusCode).toBe(200);
    expect(clientAudit.body).not.toContain("Agency clerk");
    expect(clientAudit.body).toContain("250");
  });

  it("refuses a switch that is not true or false, writing nothing", async () => {
    const p = await openPermit();
    for (const body of [
      { new_expiration_date: "2031-06-30", note: "x", note_internal: "yes" },
      { new_expiration_date: "2031-06-30", renewal_fee: "5", renewal_fee_internal: 1 },
    ]) {
      const res = await w.admin.post(`/api/permits/${p.id}/renewals`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      const fields = res.json().fields as Record<string, string>;
      expect(fields.note_internal ?? fields.renewal_fee_internal).toBe("Must be true or false");
    }
    const bad = await w.admin.post(`/api/permits/${p.id}/extensions`, {
      new_expiration_date: "2031-06-30",
      reason: "Weather",
      reason_internal: "no",
    });
    expect(bad.json().fields.reason_internal).toBe("Must be true or false");
    const inspection = await w.admin.post(`/api/permits/${p.id}/inspections`, {
      inspection_type: "Final",
      date: today(),
      result: "Passed",
      notes_internal: null,
    });
    expect(inspection.json().fields.notes_internal).toBe("Must be true or false");
    // The original term only.
    expect(await t.db.select().from(permitTerms).where(eq(permitTerms.permitId, p.id))).toHaveLength(1);
    expect(
      await t.db.select().from(permitInspections).where(eq(permitInspections.permitId, p.id)),
    ).toHaveLength(0);
    expect(await t.db.select().from(permitAudit).where(eq(permitAudit.permitId, p.id))).toHaveLength(0);
  });
});

describe("an extension's reason", () => {
  it("is shown by default and withheld from a client-user when internal", async () => {
    const p = await openPermit();
    expect(
      (
        await w.user.post(`/api/permits/${p.id}/extensions`, {
          new_expiration_date: addDays(today(), 40),
          reason: "Agency backlog",
        })
      ).statusCode,
    ).toBe(200);
    const internal = await w.user.post(`/api/permits/${p.id}/extensions`, {
      new_expiration_date: addDays(today(), 60),
      reason: "Our paperwork was late",
      reason_internal: true,
    });
    expect(internal.statusCode, internal.body).toBe(200);
    // The extensions are sub-lines of their term (issue 25).
    const reasons = (terms: Term[]) =>
      terms.flatMap((x) => [
        [x.kind, x.reason, x.reason_internal],
        ...x.extensions.map((e) => ["extension", e.reason, e.reason_internal]),
      ]);
    expect(reasons(internal.json().terms)).toEqual([
      ["original", null, false],
      ["extension", "Agency backlog", false],
      ["extension", "Our paperwork was late", true],
    ]);
    const { life, body } = await lifecycleAs(w.clientUser, p.id);
    expect(reasons(life.terms)).toEqual([
      ["original", null, false],
      ["extension", "Agency backlog", false],
      ["extension", null, false],
    ]);
    expect(body).not.toContain("paperwork");
    const audit = await w.clientUser.get(`/api/permits/${p.id}/audit`);
    expect(audit.body).toContain("Agency backlog");
    expect(audit.body).not.toContain("paperwork");
  });
});

describe("an inspection's notes", () => {
  it("are shown by default, withheld when internal, and an inspection's extension keeps its reason shown", async () => {
    const p = await openPermit({ expiryRule: "after_inspection", expiryDays: 180 });
    const passed = await w.user.post(`/api/permits/${p.id}/inspections`, {
      inspection_type: "Final",
      date: today(),
      result: "Passed",
      notes: "Inspector wants the site swept",
      notes_internal: true,
    });
    expect(passed.statusCode, passed.body).toBe(200);
    expect(
      (
        await w.user.post(`/api/permits/${p.id}/inspections`, {
          inspection_type: "Footing",
          date: addDays(today(), -1),
          result: "Failed",
          notes: "Rebar spacing",
        })
      ).statusCode,
    ).toBe(200);

    const staff = (await lifecycleAs(w.admin, p.id)).life;
    expect(staff.inspections.map((i) => [i.inspection_type, i.notes, i.notes_internal])).toEqual([
      ["Final", "Inspector wants the site swept", true],
      ["Footing", "Rebar spacing", false],
    ]);
    const { life, body } = await lifecycleAs(w.clientUser, p.id);
    expect(life.inspections.map((i) => [i.inspection_type, i.notes, i.notes_internal])).toEqual([
      ["Final", null, false],
      ["Footing", "Rebar spacing", false],
    ]);
    expect(body).not.toContain("swept");
    // The extension the pass made names only the inspection: everyone reads it.
    const extension = life.terms[0]!.extensions[0]!;
    expect(extension.reason).toMatch(/^Final passed on .* \(\+180 days\)$/);
    expect(extension.reason_internal).toBe(false);
  });
});
