import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { formatDate } from "../../../shared/domain/format.ts";
import { addDays } from "../../../shared/domain/dates.ts";
import { companyPreferences, permits, userNotifications, users } from "../../db/schema.ts";
import { createTestContext, type TestContext } from "../../test-support/harness.ts";
import { quiesce, reminderCompany } from "../../test-support/reminder-fixtures.ts";
import { CLAIM_LEASE_MS, claimDueGroups } from "./reminders.claim.ts";
import { MAX_ATTEMPTS, sendDueReminders } from "./reminders.sender.ts";
import { runReminders } from "./reminders.service.ts";
import { sweepDueReminders } from "./reminders.sweep.ts";
import { startTestSmtp, type TestSmtp } from "../../test-support/test-smtp.ts";

// The real mailer against a real SMTP server on 127.0.0.1.
let smtp: TestSmtp;
const t = {} as TestContext;
beforeAll(async () => {
  smtp = await startTestSmtp();
  Object.assign(
    t,
    await createTestContext({ SMTP_URL: smtp.url, PUBLIC_URL: "https://permits.example.com" }),
  );
});
afterAll(async () => {
  await t.close?.();
  await smtp?.close();
});
afterEach(async () => {
  smtp.failAll(false);
  smtp.failNext(0);
  await quiesce(t.db);
});

const at = (iso: string) => new Date(iso);
const later = (base: Date, ms: number) => new Date(base.getTime() + ms);
const run = (now: Date, asOf?: string) =>
  runReminders({
    db: t.db,
    mailer: t.app.ctx.mailer,
    publicUrl: "https://permits.example.com",
    links: t.app.ctx.links,
    reminderHour: 7,
    clock: () => now,
    asOf,
  });
const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email));

describe("sending: one digest per recipient and day", () => {
  it("groups every due permit and bond of the day by threshold, with both parts and escaped user text", async () => {
    const asOf = "2032-01-10";
    const co = await reminderCompany(t, { recipients: 2 });
    const p30 = await co.permit(asOf, 30, {
      permitName: "Building <b>Permit</b>",
      permitNumber: "PRM-1",
      agency: "City & County",
    });
    const p7 = await co.permit(asOf, 5, {
      permitName: "Performance Bond",
      permitNumber: "BND-7",
      recordType: "bond",
      bondAmount: "5000.00",
      agency: null,
    });
    const p1 = await co.permit(asOf, 0, { permitName: "Grading", permitNumber: "PRM-3" });
    const report = await run(at("2032-01-10T12:00:00Z"), asOf);
    expect(report).toMatchObject({ recorded: 6, emailsSent: 2, deliveriesSent: 6, deliveriesRetrying: 0 });

    for (const recipient of co.recipients) {
      const mails = mailsTo(recipient.email);
      expect(mails).toHaveLength(1);
      const mail = mails[0]!;
      expect(mail.subject).toBe(
        `Permitrack reminder: 3 permits and bonds expiring soon (${co.company.name})`,
      );
      expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/);
      expect(mail.raw).toMatch(/Content-Type: text\/plain/);
      expect(mail.raw).toMatch(/Content-Type: text\/html/);
      const body = mail.decoded;
      // grouped by threshold, highest first
      const order = [
        "30 DAYS BEFORE EXPIRATION (1)",
        "7 DAYS BEFORE EXPIRATION (1)",
        "1 DAY BEFORE EXPIRATION (1)",
      ].map((h) => body.indexOf(h));
      expect(order.every((i) => i > 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      expect(body).toContain(`https://permits.example.com/permits/${p30.id}`);
      expect(body).toContain(`https://permits.example.com/permits/${p7.id}`);
      expect(body).toContain(`https://permits.example.com/permits/${p1.id}`);
      expect(body).toContain("Type: Bond / Guarantee");
      expect(body).toContain(`Project: ${co.project.name}`);
      // Dates as the screens show them (issue 25), in the text and the HTML part alike.
      expect(body).toContain("reached a reminder threshold on Jan 10, 2032.");
      expect(body).toContain(`Expires: ${formatDate(addDays(asOf, 5))} (5 days left)`);
      expect(body).toContain("Expires: Jan 15, 2032 (5 days left)");
      expect(body).toContain("Expires: Jan 10, 2032 (expires today)");
      expect(body).toContain('white-space:nowrap">Feb 9, 2032</td>');
      expect(body).not.toMatch(/\d{4}-\d{2}-\d{2}/);
      // HTML part: user text escaped, never markup
      expect(body).toContain("Building &lt;b&gt;Permit&lt;/b&gt;");
      expect(body).toContain("City &amp; County");
      expect(body).not.toContain("<b>Permit</b></a>");
    }
    const rows = await co.deliveries();
    expect(rows.every((r) => r.status === "sent" && r.sentAt && r.messageId && r.attempts === 1)).toBe(true);
    // a second run sends nothing more
    expect(await run(at("2032-01-10T13:00:00Z"), asOf)).toMatchObject({ recorded: 0, emailsSent: 0 });
    expect(mailsTo(co.recipients[0]!.email)).toHaveLength(1);
  });

  it("sends each reminder exactly once when two sweeps and senders run at the same time", async () => {
    const asOf = "2032-02-10";
    const companies = await Promise.all([
      reminderCompany(t, { recipients: 2 }),
      reminderCompany(t, { recipients: 1 }),
    ]);
    for (const co of companies) for (const days of [30, 12, 7, 2, 1]) await co.permit(asOf, days);
    const now = at("2032-02-10T12:00:00Z");
    const reports = await Promise.all([run(now, asOf), run(now, asOf), run(now, asOf)]);
    expect(reports.reduce((n, r) => n + r.recorded, 0)).toBe(3 * 5);
    expect(reports.reduce((n, r) => n + r.deliveriesSent, 0)).toBe(3 * 5);
    for (const co of companies) {
      for (const recipient of co.recipients) expect(mailsTo(recipient.email)).toHaveLength(1);
      expect((await co.deliveries()).every((d) => d.status === "sent")).toBe(true);
    }
  });

  it("takes over reminders a crashed sender left claimed, after the lease, and sends them once", async () => {
    const asOf = "2032-03-10";
    const co = await reminderCompany(t);
    await co.permit(asOf, 7);
    const crashAt = at("2032-03-10T12:00:00Z");
    // the sweep records, then a sender claims and dies before sending
    await sweepDueReminders(t.db, { now: crashAt, asOf, reminderHour: 7 });
    const { claimed } = await claimDueGroups(t.db, crashAt);
    expect(claimed).toHaveLength(1);
    expect((await co.deliveries())[0]).toMatchObject({ status: "sending", attempts: 1 });

    // within the lease nobody touches it
    expect(await run(later(crashAt, CLAIM_LEASE_MS - 60_000), asOf)).toMatchObject({ emailsSent: 0 });
    expect(mailsTo(co.recipients[0]!.email)).toHaveLength(0);
    // after it, the next run (a restart, or another instance) sends it
    expect(await run(later(crashAt, CLAIM_LEASE_MS + 60_000), asOf)).toMatchObject({
      emailsSent: 1,
      deliveriesSent: 1,
    });
    expect(await run(later(crashAt, 3 * CLAIM_LEASE_MS), asOf)).toMatchObject({ emailsSent: 0 });
    expect(mailsTo(co.recipients[0]!.email)).toHaveLength(1);
    expect((await co.deliveries())[0]).toMatchObject({ status: "sent", attempts: 2 });
  });

  it("marks a digest the SMTP server took as sent once the database answers again, instead of re-sending it", async () => {
    const asOf = "2032-03-20";
    const co = await reminderCompany(t);
    await co.permit(asOf, 7);
    const now = at("2032-03-20T12:00:00Z");
    // The database is unreachable for the first two tries of the sent mark (an outage after the send).
    let outage = 2;
    const db = new Proxy(t.db, {
      get(target, prop, receiver) {
        if (prop !== "update" || outage === 0) return Reflect.get(target, prop, receiver);
        outage--;
        const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), {
          code: "ECONNREFUSED",
        });
        return () => ({ set: () => ({ where: () => ({ returning: () => Promise.reject(refused) }) }) });
      },
    });
    await sweepDueReminders(t.db, { now, asOf, reminderHour: 7 });
    const report = await sendDueReminders(db, t.app.ctx.mailer, {
      clock: () => now,
      publicUrl: "https://permits.example.com",
      links: t.app.ctx.links,
    });
    expect(report).toMatchObject({ emailsSent: 1, deliveriesSent: 1 });
    expect(outage).toBe(0);
    expect((await co.deliveries())[0]).toMatchObject({ status: "sent", attempts: 1 });
    // Nothing is left claimed, so nothing goes out again after the lease.
    expect(await run(later(now, 2 * CLAIM_LEASE_MS), asOf)).toMatchObject({ emailsSent: 0 });
    expect(mailsTo(co.recipients[0]!.email)).toHaveLength(1);
  });

  it("retries after an SMTP failure with backoff, and the retry does not send twice", async () => {
    const asOf = "2032-04-10";
    const co = await reminderCompany(t);
    await co.permit(asOf, 7);
    await co.permit(asOf, 30);
    const t0 = at("2032-04-10T12:00:00Z");
    smtp.failNext(1);
    expect(await run(t0, asOf)).toMatchObject({ recorded: 2, emailsSent: 0, deliveriesRetrying: 2 });
    let rows = await co.deliveries();
    expect(
      rows.every((r) => r.status === "pending" && r.attempts === 1 && /451/.test(r.lastError ?? "")),
    ).toBe(true);
    expect(rows[0]!.nextAttemptAt.getTime()).toBe(t0.getTime() + 5 * 60_000);

    expect(await run(later(t0, 60_000), asOf)).toMatchObject({ emailsSent: 0 }); // backoff not over
    expect(await run(later(t0, 5 * 60_000), asOf)).toMatchObject({ emailsSent: 1, deliveriesSent: 2 });
    expect(await run(later(t0, 60 * 60_000), asOf)).toMatchObject({ emailsSent: 0 });
    expect(mailsTo(co.recipients[0]!.email)).toHaveLength(1);
    rows = await co.deliveries();
    expect(rows.every((r) => r.status === "sent" && r.attempts === 2 && r.lastError === null)).toBe(true);
  });

  it("gives up after the last try and shows the failure in the delivery logs", async () => {
    const asOf = "2032-05-10";
    const co = await reminderCompany(t);
    const permit = await co.permit(asOf, 1);
    smtp.failAll(true);
    let now = at("2032-05-10T12:00:00Z");
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const report = await run(now, asOf);
      expect(report.deliveriesRetrying + report.deliveriesFailed).toBe(1);
      now = later(now, 2 ** attempt * 5 * 60_000);
    }
    expect(await run(later(now, 24 * 3600_000), asOf)).toMatchObject({ emailsSent: 0, deliveriesFailed: 0 });
    const [row] = await co.deliveries();
    expect(row).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS });
    expect(row!.lastError).toMatch(/Mailbox temporarily unavailable/);
    expect(mailsTo(co.recipients[0]!.email)).toHaveLength(0);

    const admin = await t.signIn(co.recipients[0]!);
    const onPermit = await admin.get(`/api/permits/${permit.id}/reminders`);
    expect(onPermit.json().deliveries).toEqual([
      expect.objectContaining({ status: "failed", threshold: 1, sentAt: null, lastError: row!.lastError }),
    ]);
    const inSettings = await admin.get("/api/notifications/deliveries");
    expect(inSettings.json().deliveries[0]).toMatchObject({
      status: "failed",
      attempts: MAX_ATTEMPTS,
      permit: { id: permit.id },
    });
  });
});

describe("re-checked at send time: what is no longer due is cancelled, not sent", () => {
  it("cancels reminders of archived, N/A and re-dated permits, switched-off thresholds and removed recipients", async () => {
    const asOf = "2032-06-10";
    const co = await reminderCompany(t, { recipients: 2 });
    const stays = await co.permit(asOf, 7, { permitName: "Stays" });
    const archived = await co.permit(asOf, 7);
    const na = await co.permit(asOf, 7);
    const redated = await co.permit(asOf, 7);
    await co.permit(asOf, 20); // its 30-day reminder is switched off below
    const t0 = at("2032-06-10T12:00:00Z");
    expect(await sweepDueReminders(t.db, { now: t0, asOf, reminderHour: 7 })).toBe(10);

    await t.db.update(permits).set({ archived: true }).where(eq(permits.id, archived.id));
    await t.db.update(permits).set({ status: "N/A" }).where(eq(permits.id, na.id));
    await t.db
      .update(permits)
      .set({ expirationDate: addDays(asOf, 40) })
      .where(eq(permits.id, redated.id));
    await t.db
      .update(companyPreferences)
      .set({ email30Day: false })
      .where(eq(companyPreferences.companyId, co.company.id));
    const [kept, removed] = co.recipients;
    await t.db.delete(userNotifications).where(eq(userNotifications.userId, removed!.id));

    const report = await run(t0, asOf);
    expect(report).toMatchObject({ emailsSent: 1, deliveriesSent: 1 });
    const names = new Map([
      [stays.id, "stays"],
      [archived.id, "archived"],
      [na.id, "na"],
      [redated.id, "redated"],
    ]);
    const reasons = Object.fromEntries(
      (await co.deliveries()).map((d) => [
        `${names.get(d.permitId ?? "") ?? "off"}:${d.recipientUserId === kept!.id ? "kept" : "removed"}`,
        `${d.status} ${d.lastError ?? ""}`.trim(),
      ]),
    );
    expect(reasons).toEqual({
      "stays:kept": "sent",
      "stays:removed": "cancelled Recipient removed",
      "archived:kept": "cancelled Permit archived",
      "archived:removed": "cancelled Permit archived",
      "na:kept": "cancelled Permit marked N/A",
      "na:removed": "cancelled Permit marked N/A",
      "redated:kept": "cancelled Expiration date changed",
      "redated:removed": "cancelled Expiration date changed",
      "off:kept": "cancelled Reminder switched off",
      "off:removed": "cancelled Reminder switched off",
    });
    expect(mailsTo(removed!.email)).toHaveLength(0);
    expect(mailsTo(kept!.email)[0]!.decoded).toContain("Stays");
  });

  it("sends nothing for a deleted permit, or to a recipient disabled after the sweep", async () => {
    const asOf = "2032-07-10";
    const co = await reminderCompany(t, { recipients: 2 });
    const gone = await co.permit(asOf, 7);
    const t0 = at("2032-07-10T12:00:00Z");
    await co.permit(asOf, 3);
    expect(await sweepDueReminders(t.db, { now: t0, asOf, reminderHour: 7 })).toBe(4);
    await t.db.delete(permits).where(eq(permits.id, gone.id));
    await t.db.update(users).set({ banned: true }).where(eq(users.id, co.recipients[1]!.id));
    expect(await run(t0, asOf)).toMatchObject({ emailsSent: 1, deliveriesSent: 1, deliveriesCancelled: 1 });
    expect(mailsTo(co.recipients[1]!.email)).toHaveLength(0);
  });
});
