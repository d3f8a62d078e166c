import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { formatDate } from "../../../shared/domain/format.ts";
import { addDays } from "../../../shared/domain/dates.ts";
import { permits, reminderDeliveries } from "../../db/schema.ts";
import { createTestContext, type TestContext } from "../../test-support/harness.ts";
import { quiesce, reminderCompany } from "../../test-support/reminder-fixtures.ts";
import { startTestSmtp, type TestSmtp } from "../../test-support/test-smtp.ts";
import { runReminders } from "./reminders.service.ts";

// Issue 11 on the real mailer and a real SMTP server: responsible person, renew-by countdown,
// acknowledgement, escalation, the overdue digest and renewals, each exactly once.
const PUBLIC_URL = "https://permits.example.com";
let smtp: TestSmtp;
const t = {} as TestContext;
beforeAll(async () => {
  smtp = await startTestSmtp();
  Object.assign(t, await createTestContext({ SMTP_URL: smtp.url, PUBLIC_URL }));
});
afterAll(async () => {
  await t.close?.();
  await smtp?.close();
});
afterEach(async () => {
  await quiesce(t.db);
  smtp.messages.length = 0;
});

const run = async (asOf: string) =>
  runReminders({
    db: t.db,
    mailer: t.app.ctx.mailer,
    publicUrl: PUBLIC_URL,
    links: t.app.ctx.links,
    reminderHour: 7,
    clock: () => new Date(`${asOf}T12:00:00Z`),
    asOf,
  });
const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email));
const kindsOf = async (permitId: string) =>
  (await t.db.select().from(reminderDeliveries).where(eq(reminderDeliveries.permitId, permitId)))
    .map((d) => `${d.kind}:${d.threshold}:${d.recipientEmail}:${d.status}`)
    .sort();

describe("the responsible person", () => {
  it("gets the permit's reminders with the chosen recipients, in one digest of their own, once", async () => {
    const asOf = "2033-01-10";
    const co = await reminderCompany(t);
    const responsible = await t.make.user({ role: "company-user", companyId: co.company.id });
    const p = await co.permit(asOf, 7, { responsibleUserId: responsible.id, permitName: "Trench Permit" });
    // The recipient who is also responsible for another permit gets one row per permit, not two.
    const q = await co.permit(asOf, 7, { responsibleUserId: co.recipients[0]!.id });
    const report = await run(asOf);
    expect(report.recorded).toBe(3);
    expect(await kindsOf(p.id)).toEqual(
      [`reminder:7:${co.recipients[0]!.email}:sent`, `reminder:7:${responsible.email}:sent`].sort(),
    );
    expect(await kindsOf(q.id)).toEqual([`reminder:7:${co.recipients[0]!.email}:sent`]);
    expect(mailsTo(responsible.email)).toHaveLength(1);
    expect(mailsTo(responsible.email)[0]!.decoded).toContain("Trench Permit");
    expect(mailsTo(co.recipients[0]!.email)).toHaveLength(1);
  });

  it("is not a recipient when disabled or a client-user", async () => {
    const asOf = "2033-01-12";
    const co = await reminderCompany(t);
    const disabled = await t.make.user({ role: "company-user", companyId: co.company.id, banned: true });
    const p = await co.permit(asOf, 1, { responsibleUserId: disabled.id });
    await run(asOf);
    expect(await kindsOf(p.id)).toEqual([`reminder:1:${co.recipients[0]!.email}:sent`]);
  });
});

describe("the renew-by countdown", () => {
  it("counts down to expiry minus the lead time, and says so in the e-mail", async () => {
    const asOf = "2033-02-01";
    const co = await reminderCompany(t);
    // Expires in 37 days with a 30-day lead time: renew by in 7 days -> the 7-day reminder.
    const p = await co.permit(asOf, 37, { renewalLeadDays: 30, permitName: "Lead Permit" });
    await run(asOf);
    const [d] = await t.db.select().from(reminderDeliveries).where(eq(reminderDeliveries.permitId, p.id));
    expect(d).toMatchObject({ kind: "reminder", threshold: 7, expirationDate: addDays(asOf, 7) });
    const mail = mailsTo(co.recipients[0]!.email)[0]!;
    // Dates as the screens show them (issue 25): "renew by Feb 8, 2033".
    expect(mail.decoded).toContain(`renew by ${formatDate(addDays(asOf, 7))} (7 days left)`);
    expect(mail.decoded).toContain("renew by Feb 8, 2033 (7 days left)");
    expect(mail.decoded).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });
});

describe("acknowledge", () => {
  it("from the e-mail's link stops the term's reminders for everyone; a renewal starts them again", async () => {
    const asOf = "2033-03-01";
    const co = await reminderCompany(t, { recipients: 2 });
    const p = await co.permit(asOf, 30, { permitName: "Ack Permit" });
    await run(asOf);
    const mail = mailsTo(co.recipients[1]!.email)[0]!;
    const url = mail.decoded.match(/https:\/\/permits\.example\.com\/acknowledge\/([A-Za-z0-9_.-]+)/);
    expect(url, "the e-mail carries an Acknowledge link").not.toBeNull();
    const ack = await t.anonymous.post(`/api/acknowledgements/${url![1]}`);
    expect(ack.statusCode).toBe(200);
    expect(ack.json().acknowledged.by).toBe(`${co.recipients[1]!.firstName} ${co.recipients[1]!.lastName}`);

    // 7 days before: nobody gets the next reminder of this term.
    const week = addDays(asOf, 23);
    const report = await run(week);
    expect(report.recorded).toBe(0);
    expect(smtp.messages.filter((m) => m.decoded.includes("Ack Permit"))).toHaveLength(2);

    // A renewal clears it; the new term's expiry gets its own reminders.
    const admin = await t.signIn(co.recipients[0]!);
    // Renewed to expire 30 days after the week mark: its 30-day reminder is due at once.
    const renewed = await admin.post(`/api/permits/${p.id}/renewals`, {
      new_expiration_date: addDays(week, 30),
    });
    expect(renewed.json().acknowledged).toBeNull();
    expect((await run(week)).recorded).toBe(2);
  });

  it("cancels reminders already recorded but not yet sent", async () => {
    const asOf = "2033-03-10";
    const co = await reminderCompany(t);
    const p = await co.permit(asOf, 7);
    await t.db.insert(reminderDeliveries).values({
      companyId: co.company.id,
      permitId: p.id,
      threshold: 7,
      expirationDate: p.expirationDate!,
      recipientUserId: co.recipients[0]!.id,
      recipientEmail: co.recipients[0]!.email,
      dueDate: asOf,
      nextAttemptAt: new Date(`${asOf}T13:00:00Z`),
    });
    const admin = await t.signIn(co.recipients[0]!);
    expect((await admin.post(`/api/permits/${p.id}/acknowledgement`, {})).statusCode).toBe(200);
    await run(addDays(asOf, 1));
    expect(await kindsOf(p.id)).toEqual([`reminder:7:${co.recipients[0]!.email}:cancelled`]);
    expect(mailsTo(co.recipients[0]!.email)).toHaveLength(0);
  });
});

describe("escalation", () => {
  it("tells the company admins once per term when nobody acted within Escalation Days", async () => {
    const asOf = "2033-04-01";
    const co = await reminderCompany(t, { escalationDays: 7, recipients: 2 });
    const extraAdmin = await t.make.user({ role: "company-admin", companyId: co.company.id });
    const p = await co.permit(asOf, 5, { permitName: "Escalated Permit" });
    await run(asOf);
    const escalations = (await kindsOf(p.id)).filter((k) => k.startsWith("escalation"));
    // Company admins only (recipients[1] is a company-user), whether or not they are on the reminder list.
    expect(escalations).toEqual(
      [`escalation:7:${co.recipients[0]!.email}:sent`, `escalation:7:${extraAdmin.email}:sent`].sort(),
    );
    const mail = mailsTo(extraAdmin.email)[0]!;
    expect(mail.subject).toBe(`Permitrack: 1 permit or bond needs attention (${co.company.name})`);
    expect(mail.decoded).toContain("ESCALATION: NOBODY HAS ACTED YET (1)");
    // The day as the screens show it (issue 25), never "as of 2033-04-01".
    expect(mail.decoded).toContain(`need attention as of Apr 1, 2033.`);
    expect(mail.decoded).not.toMatch(/\d{4}-\d{2}-\d{2}/);

    // The next days: no second escalation for the same term.
    await run(addDays(asOf, 1));
    await run(addDays(asOf, 2));
    expect((await kindsOf(p.id)).filter((k) => k.startsWith("escalation"))).toHaveLength(2);
  });

  it("is not sent for an acknowledged or closed permit, nor with Escalation Days off", async () => {
    const asOf = "2033-04-10";
    const co = await reminderCompany(t, { escalationDays: 7 });
    const acked = await co.permit(asOf, 3, { acknowledgedAt: new Date(), acknowledgedByName: "Someone" });
    const closed = await co.permit(asOf, 3, { closeDate: asOf, finalStatus: "Finaled" });
    const off = await reminderCompany(t, { escalationDays: 0 });
    const quiet = await off.permit(asOf, 3);
    await run(asOf);
    expect(await kindsOf(acked.id)).toEqual([]);
    expect(await kindsOf(closed.id)).toEqual([]);
    expect((await kindsOf(quiet.id)).filter((k) => k.startsWith("escalation"))).toEqual([]);
  });
});

describe("the overdue digest", () => {
  const overdueRows = (companyId: string) =>
    t.db
      .select()
      .from(reminderDeliveries)
      .where(and(eq(reminderDeliveries.companyId, companyId), eq(reminderDeliveries.kind, "overdue")));

  it("lists the expired open permits to the admins in one digest a day, each once, until renewed", async () => {
    const asOf = "2033-05-01";
    const co = await reminderCompany(t, { overdueDigest: true, recipients: 2 });
    const p = await co.permit(asOf, -3, { permitName: "Lapsed Permit" });
    await co.permit(asOf, -40, { permitName: "Long Lapsed Permit" });
    await co.permit(asOf, -2, { permitName: "Closed Lapsed", closeDate: asOf });
    await run(asOf);
    await run(asOf); // twice the same day: once
    await run(addDays(asOf, 1));
    // One digest per company admin (recipients[1] is a company-user) per day, naming no permit.
    const rows = await overdueRows(co.company.id);
    expect(rows.map((d) => [d.recipientUserId, d.dueDate, d.permitId]).sort()).toEqual([
      [co.recipients[0]!.id, asOf, null],
      [co.recipients[0]!.id, addDays(asOf, 1), null],
    ]);
    const [first] = mailsTo(co.recipients[0]!.email);
    expect(first!.decoded).toContain("OVERDUE: EXPIRED AND STILL OPEN (2)");
    expect(first!.decoded).toContain("3 days overdue");
    expect(first!.decoded).toContain("Long Lapsed Permit");
    expect(first!.decoded).not.toContain("Closed Lapsed");
    expect(first!.decoded.match(/\* Lapsed Permit/g)).toHaveLength(1);
    expect(mailsTo(co.recipients[1]!.email)).toHaveLength(0);

    // Renewing one leaves the other in the next digest; renewing both ends the digests.
    const admin = await t.signIn(co.recipients[0]!);
    await admin.post(`/api/permits/${p.id}/renewals`, { new_expiration_date: addDays(asOf, 200) });
    smtp.messages.length = 0;
    await run(addDays(asOf, 2));
    const [next] = mailsTo(co.recipients[0]!.email);
    expect(next!.decoded).toContain("OVERDUE: EXPIRED AND STILL OPEN (1)");
    expect(next!.decoded).not.toContain("* Lapsed Permit");
  });

  it("stays silent when switched off, and when nothing is overdue but archived or closed permits", async () => {
    const asOf = "2033-05-10";
    const off = await reminderCompany(t, { overdueDigest: false });
    await off.permit(asOf, -2);
    const on = await reminderCompany(t, { overdueDigest: true });
    await on.permit(asOf, -2, { archived: true });
    await on.permit(asOf, -2, { closeDate: asOf });
    await run(asOf);
    expect(await overdueRows(off.company.id)).toEqual([]);
    expect(await overdueRows(on.company.id)).toEqual([]);
  });

  it("is cancelled at send time when the last overdue permit was closed after the sweep", async () => {
    const asOf = "2033-05-20";
    const co = await reminderCompany(t, { overdueDigest: true });
    const p = await co.permit(asOf, -5);
    const { sweepDueReminders } = await import("./reminders.sweep.ts");
    await sweepDueReminders(t.db, { now: new Date(`${asOf}T12:00:00Z`), asOf, reminderHour: 7 });
    await t.db.update(permits).set({ closeDate: asOf }).where(eq(permits.id, p.id));
    await run(asOf);
    const [row] = await overdueRows(co.company.id);
    expect(row).toMatchObject({ status: "cancelled", lastError: "Nothing overdue any more" });
    expect(mailsTo(co.recipients[0]!.email)).toHaveLength(0);
  });
});

describe("exactly once with two sweeps at the same moment", () => {
  it("records each (permit, term, kind, recipient, day) once, and one overdue digest per admin and day", async () => {
    const asOf = "2033-06-01";
    const co = await reminderCompany(t, { escalationDays: 7, overdueDigest: true });
    const soon = await co.permit(asOf, 5);
    const late = await co.permit(asOf, -1);
    await Promise.all([run(asOf), run(asOf), run(asOf)]);
    expect(await kindsOf(soon.id)).toEqual(
      [`escalation:7:${co.recipients[0]!.email}:sent`, `reminder:7:${co.recipients[0]!.email}:sent`].sort(),
    );
    expect(await kindsOf(late.id)).toEqual([]);
    const overdue = await t.db
      .select()
      .from(reminderDeliveries)
      .where(and(eq(reminderDeliveries.companyId, co.company.id), eq(reminderDeliveries.kind, "overdue")));
    expect(overdue.map((d) => d.status)).toEqual(["sent"]);
    expect(mailsTo(co.recipients[0]!.email)).toHaveLength(1);
    const [row] = await t.db
      .select()
      .from(permits)
      .where(and(eq(permits.id, soon.id)));
    expect(row!.termNo).toBe(1);
  });
});
