import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { permitAudit, permits, permitTerms, reminderDeliveries } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";
import { signAcknowledgeToken } from "../reminders/index.ts";

const t = useTestContext();
const w = useWorld(t, { permits: true });
const today = () => todayIn("UTC");

async function openPermit(over: Partial<typeof permits.$inferInsert> = {}) {
  return t.make.permit({
    companyId: w.companyId,
    clientId: w.seenClientId,
    expirationDate: addDays(today(), 20),
    issueDate: "2026-01-05",
    ...over,
  });
}

const lifecycleOf = async (id: string, api = w.admin) =>
  (await api.get(`/api/permits/${id}/lifecycle`)).json();

describe("access", () => {
  it("requires sign-in, answers 404 across companies and hidden clients, and lets client-users only read", async () => {
    const anon = await t.anonymous.get(`/api/permits/${w.permitId}/lifecycle`);
    expect(anon.statusCode).toBe(401);
    for (const api of [w.admin, w.user, w.clientUser]) {
      expect((await api.get(`/api/permits/${w.foreignPermitId}/lifecycle`)).statusCode).toBe(404);
      const renew = await api.post(`/api/permits/${w.foreignPermitId}/renewals`, {
        new_expiration_date: "2031-01-01",
      });
      expect(renew.statusCode).toBe(404);
    }
    expect((await w.clientUser.get(`/api/permits/${w.hiddenPermitId}/lifecycle`)).statusCode).toBe(404);

    const seen = await w.clientUser.get(`/api/permits/${w.permitId}/lifecycle`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().can).toEqual({
      renew: false,
      extend: false,
      inspect: false,
      acknowledge: false,
      close: false,
    });
    const acts: [string, object][] = [
      ["renewals", { new_expiration_date: "2031-01-01" }],
      ["extensions", { new_expiration_date: "2031-01-01", reason: "x" }],
      ["inspections", { inspection_type: "Final", date: today(), result: "Passed" }],
      ["acknowledgement", {}],
      ["close", { close_date: today(), final_status: "Finaled" }],
    ];
    for (const [path, body] of acts) {
      expect((await w.clientUser.post(`/api/permits/${w.permitId}/${path}`, body)).statusCode, path).toBe(
        403,
      );
    }
    expect((await w.user.get(`/api/permits/${w.permitId}/lifecycle`)).json().can.renew).toBe(true);
  });
});

describe("renewal", () => {
  it("closes the current term, starts the next, clears the acknowledgement and cancels pending reminders", async () => {
    const p = await openPermit({ permitNumber: "BP-1" });
    expect((await w.user.post(`/api/permits/${p.id}/acknowledgement`, {})).statusCode).toBe(200);
    await t.db.insert(reminderDeliveries).values({
      companyId: w.companyId,
      permitId: p.id,
      threshold: 30,
      expirationDate: p.expirationDate!,
      recipientUserId: w.adminId,
      recipientEmail: "a@example.com",
      dueDate: today(),
    });

    const res = await w.user.post(`/api/permits/${p.id}/renewals`, {
      new_expiration_date: "2031-06-30",
      new_issue_date: "2026-11-20",
      new_permit_number: "BP-1-R",
      renewal_fee: "125.50",
      note: "Renewed at the counter",
    });
    expect(res.statusCode, res.body).toBe(200);
    const life = res.json();
    expect(life.term_no).toBe(2);
    expect(life.acknowledged).toBeNull();
    expect(
      life.terms.map((x: { term_no: number; kind: string; ended_on: string | null }) => [
        x.term_no,
        x.kind,
        x.ended_on,
      ]),
    ).toEqual([
      [1, "original", today()],
      [2, "renewal", null],
    ]);
    expect(life.terms[1]).toMatchObject({
      permit_number: "BP-1-R",
      issue_date: "2026-11-20",
      expiration_date: "2031-06-30",
      renewal_fee: "125.50",
      note: "Renewed at the counter",
      created_by_name: "Sam Baker",
    });
    const [row] = await t.db.select().from(permits).where(eq(permits.id, p.id));
    expect(row).toMatchObject({ expirationDate: "2031-06-30", permitNumber: "BP-1-R", termNo: 2 });
    const [delivery] = await t.db
      .select()
      .from(reminderDeliveries)
      .where(eq(reminderDeliveries.permitId, p.id));
    expect(delivery).toMatchObject({ status: "cancelled", lastError: "Permit renewed" });
    const audit = await t.db
      .select()
      .from(permitAudit)
      .where(and(eq(permitAudit.permitId, p.id), eq(permitAudit.action, "renew")));
    expect(audit.map((a) => a.field).sort()).toEqual(
      ["expiration_date", "issue_date", "note", "permit_number", "renewal_fee", "term"].sort(),
    );
  });

  it("refuses a new expiration date that is not after the current one, changing nothing", async () => {
    const p = await openPermit();
    for (const date of [p.expirationDate!, addDays(p.expirationDate!, -1)]) {
      const res = await w.admin.post(`/api/permits/${p.id}/renewals`, { new_expiration_date: date });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields.new_expiration_date).toMatch(/after the current one/);
    }
    const bad = await w.admin.post(`/api/permits/${p.id}/renewals`, { new_expiration_date: "2031-02-30" });
    expect(bad.statusCode).toBe(400);
    const missing = await w.admin.post(`/api/permits/${p.id}/renewals`, {});
    expect(missing.json().fields.new_expiration_date).toBe("New Expiration Date is required");
    expect((await lifecycleOf(p.id)).terms).toHaveLength(1);
  });
});

describe("extension", () => {
  it("keeps the term, moves the date and needs a reason", async () => {
    const p = await openPermit();
    const noReason = await w.admin.post(`/api/permits/${p.id}/extensions`, {
      new_expiration_date: "2030-01-01",
    });
    expect(noReason.json().fields.reason).toBe("Reason is required");
    const res = await w.admin.post(`/api/permits/${p.id}/extensions`, {
      new_expiration_date: "2030-01-01",
      reason: "Weather delay granted by the city",
    });
    expect(res.statusCode).toBe(200);
    const life = res.json();
    expect(life.term_no).toBe(1);
    expect(life.expiration_date).toBe("2030-01-01");
    // One row per term (issue 25): the extension is a sub-line of term 1, with the date it replaced.
    expect(life.terms).toHaveLength(1);
    expect(life.terms[0]).toMatchObject({ term_no: 1, kind: "original", expiration_date: "2030-01-01" });
    expect(life.terms[0].extensions).toEqual([
      expect.objectContaining({
        previous_expiration_date: p.expirationDate,
        expiration_date: "2030-01-01",
        extended_on: today(),
        reason: "Weather delay granted by the city",
      }),
    ]);
  });

  it("answers one row per term: extensions folded into their term, which ends with the renewal after it", async () => {
    const p = await openPermit({ expirationDate: "2027-12-01" });
    const extend = (date: string, reason: string) =>
      w.user.post(`/api/permits/${p.id}/extensions`, { new_expiration_date: date, reason });
    expect((await extend("2028-03-01", "Agency backlog")).statusCode).toBe(200);
    expect((await extend("2028-04-01", "Second delay")).statusCode).toBe(200);
    const renewed = await w.user.post(`/api/permits/${p.id}/renewals`, { new_expiration_date: "2029-04-01" });
    expect(renewed.statusCode, renewed.body).toBe(200);
    const life = await lifecycleOf(p.id);
    expect(
      life.terms.map(
        (x: { term_no: number; kind: string; expiration_date: string; ended_on: string | null }) => [
          x.term_no,
          x.kind,
          x.expiration_date,
          x.ended_on,
        ],
      ),
    ).toEqual([
      [1, "original", "2028-04-01", today()],
      [2, "renewal", "2029-04-01", null],
    ]);
    expect(
      life.terms[0].extensions.map(
        (e: { previous_expiration_date: string; expiration_date: string; reason: string }) => [
          e.previous_expiration_date,
          e.expiration_date,
          e.reason,
        ],
      ),
    ).toEqual([
      ["2027-12-01", "2028-03-01", "Agency backlog"],
      ["2028-03-01", "2028-04-01", "Second delay"],
    ]);
    expect(life.terms[1].extensions).toEqual([]);
    // The stored history keeps every row.
    const rows = await t.db.select().from(permitTerms).where(eq(permitTerms.permitId, p.id));
    expect(rows.map((r) => r.kind).sort()).toEqual(["extension", "extension", "original", "renewal"]);
  });
});

describe("inspections", () => {
  it("under 'Days after last passed inspection', a pass moves the expiry; a fail does not", async () => {
    const p = await openPermit({
      expiryRule: "after_inspection",
      expiryDays: 180,
      expirationDate: addDays(today(), 5),
    });
    const failed = await w.user.post(`/api/permits/${p.id}/inspections`, {
      inspection_type: "Framing",
      date: today(),
      result: "Failed",
      inspector: "J. Ruiz",
    });
    expect(failed.statusCode).toBe(200);
    expect(failed.json().expiration_date).toBe(p.expirationDate);

    const passed = await w.user.post(`/api/permits/${p.id}/inspections`, {
      inspection_type: "Framing",
      date: today(),
      result: "Passed",
      inspector: "J. Ruiz",
      notes: "Re-inspection OK",
    });
    const life = passed.json();
    expect(life.expiration_date).toBe(addDays(today(), 180));
    expect(life.inspections.map((i: { result: string }) => i.result).sort()).toEqual(["Failed", "Passed"]);
    expect(life.terms).toHaveLength(1);
    expect(life.terms[0]).toMatchObject({
      kind: "original",
      term_no: 1,
      expiration_date: addDays(today(), 180),
    });
    expect(life.terms[0].extensions).toHaveLength(1);
    expect(life.terms[0].extensions[0]).toMatchObject({
      previous_expiration_date: addDays(today(), 5),
      expiration_date: addDays(today(), 180),
    });
    expect(life.terms[0].extensions[0].reason).toContain("Framing passed on");

    // An older pass never moves the date back.
    const older = await w.user.post(`/api/permits/${p.id}/inspections`, {
      inspection_type: "Footing",
      date: addDays(today(), -30),
      result: "Passed",
    });
    expect(older.json().expiration_date).toBe(addDays(today(), 180));
  });

  it("leaves a fixed-date permit's expiry alone and refuses future dates and bad results", async () => {
    const p = await openPermit();
    const res = await w.user.post(`/api/permits/${p.id}/inspections`, {
      inspection_type: "Final",
      date: today(),
      result: "Passed",
    });
    expect(res.json().expiration_date).toBe(p.expirationDate);
    const future = await w.user.post(`/api/permits/${p.id}/inspections`, {
      inspection_type: "Final",
      date: addDays(today(), 3),
      result: "Passed",
    });
    expect(future.statusCode).toBe(400);
    expect(future.json().fields.date).toBe("Date cannot be in the future.");
    const result = await w.user.post(`/api/permits/${p.id}/inspections`, {
      inspection_type: "Final",
      date: today(),
      result: "Great",
    });
    expect(result.json().fields.result).toBe("Result is required");
  });
});

describe("acknowledge and close", () => {
  it("records who and when once; closing makes the lifecycle read-only", async () => {
    const p = await openPermit();
    const first = (await w.user.post(`/api/permits/${p.id}/acknowledgement`, {})).json();
    expect(first.acknowledged.by).toBe("Sam Baker");
    const again = (await w.admin.post(`/api/permits/${p.id}/acknowledgement`, {})).json();
    expect(again.acknowledged).toEqual(first.acknowledged);

    const closed = await w.admin.post(`/api/permits/${p.id}/close`, {
      close_date: today(),
      final_status: "Finaled",
    });
    expect(closed.statusCode).toBe(200);
    expect(closed.json().closed).toEqual({ close_date: today(), final_status: "Finaled" });
    expect(closed.json().can).toEqual({
      renew: false,
      extend: false,
      inspect: false,
      acknowledge: false,
      close: false,
    });
    const renew = await w.admin.post(`/api/permits/${p.id}/renewals`, { new_expiration_date: "2032-01-01" });
    expect(renew.statusCode).toBe(409);
    expect(renew.json().message).toBe("This permit is closed; its terms and inspections are read-only.");
    const bad = await w.admin.post(`/api/permits/${(await openPermit()).id}/close`, {
      close_date: today(),
      final_status: "Done",
    });
    expect(bad.json().fields.final_status).toBe("Final Status is required");
  });
});

describe("the Acknowledge link of a reminder e-mail", () => {
  async function link(p: { id: string; expirationDate: string | null; termNo: number }, userId = w.userId) {
    return signAcknowledgeToken(t.app.ctx.links, {
      permitId: p.id,
      recipientUserId: userId,
      termNo: p.termNo,
      dueOn: p.expirationDate!,
    });
  }

  it("shows the permit without changing it, then acknowledges as the recipient without a session", async () => {
    const p = await openPermit({ permitName: "Grading Permit" });
    const token = await link(p);
    const seen = await t.anonymous.get(`/api/acknowledgements/${token}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({
      permit_name: "Grading Permit",
      recipient_name: "Sam Baker",
      acknowledged: null,
    });
    expect((await lifecycleOf(p.id)).acknowledged).toBeNull();

    const done = await t.anonymous.post(`/api/acknowledgements/${token}`);
    expect(done.statusCode).toBe(200);
    expect(done.json().acknowledged.by).toBe("Sam Baker");
    expect((await lifecycleOf(p.id)).acknowledged.by).toBe("Sam Baker");
  });

  it("refuses a tampered token, another purpose's signature, a renewed term and a client-user recipient", async () => {
    const p = await openPermit();
    const token = await link(p);
    const other = await link({ ...p, id: w.permitId });
    const tampered = [...other.split(".").slice(0, 4), token.split(".")[4]].join(".");
    expect((await t.anonymous.post(`/api/acknowledgements/${tampered}`)).statusCode).toBe(404);
    expect((await t.anonymous.post(`/api/acknowledgements/${token.slice(0, -2)}xx`)).statusCode).toBe(404);
    expect((await t.anonymous.get(`/api/acknowledgements/not-a-token`)).statusCode).toBe(404);

    const clientToken = await link(p, w.clientUserId);
    expect((await t.anonymous.post(`/api/acknowledgements/${clientToken}`)).statusCode).toBe(404);

    await w.admin.post(`/api/permits/${p.id}/renewals`, { new_expiration_date: "2033-01-01" });
    const res = await t.anonymous.post(`/api/acknowledgements/${token}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toMatch(/not valid any more/);
    expect((await lifecycleOf(p.id)).acknowledged).toBeNull();
  });

  it("refuses the link of a permit the reminders no longer cover: archived or marked N/A", async () => {
    for (const change of [{ archived: true }, { status: "N/A" as const }]) {
      const p = await openPermit();
      const token = await link(p);
      expect((await t.anonymous.get(`/api/acknowledgements/${token}`)).statusCode).toBe(200);
      await t.db.update(permits).set(change).where(eq(permits.id, p.id));
      expect((await t.anonymous.get(`/api/acknowledgements/${token}`)).statusCode).toBe(404);
      expect((await t.anonymous.post(`/api/acknowledgements/${token}`)).statusCode).toBe(404);
      expect((await lifecycleOf(p.id)).acknowledged).toBeNull();
    }
  });
});
