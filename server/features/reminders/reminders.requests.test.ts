import { and, eq, inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../../shared/domain/dates.ts";
import { formatDate } from "../../../shared/domain/format.ts";
import { documentRequests, reminderDeliveries } from "../../db/schema.ts";
import { createTestContext, type TestContext } from "../../test-support/harness.ts";
import { insertRequest, quiesce, reminderCompany } from "../../test-support/reminder-fixtures.ts";
import { statementsOf } from "../../test-support/statements.ts";
import { startTestSmtp, type TestSmtp } from "../../test-support/test-smtp.ts";
import { previewDueReminders } from "./reminders.preview.ts";
import { runReminders } from "./reminders.service.ts";
import { sweepDueReminders } from "./reminders.sweep.ts";

// Issue 27, item 5 on the real mailer and a real SMTP server: what the staff's reminders know of
// document requests ('Renewal requested from ...', 'Renewal Pending', 'Overdue request').
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

const noon = (day: string) => new Date(`${day}T12:00:00Z`);
const run = (asOf: string, now = noon(asOf)) =>
  runReminders({
    db: t.db,
    mailer: t.app.ctx.mailer,
    publicUrl: PUBLIC_URL,
    links: t.app.ctx.links,
    reminderHour: 7,
    clock: () => now,
    asOf,
  });
const mailsTo = (email: string) =>
  smtp.messages
    .filter((m) => m.to.includes(email))
    .map((m) => ({ ...m, decoded: m.decoded.replace(/\r\n/g, "\n") }));
const kindsOf = async (permitId: string) =>
  (await t.db.select().from(reminderDeliveries).where(eq(reminderDeliveries.permitId, permitId)))
    .map((d) => `${d.kind}:${d.threshold}:${d.status}${d.lastError ? ` ${d.lastError}` : ""}`)
    .sort();

describe("the staff digest while a request is open", () => {
  it("says 'Renewal requested from NAME on DATE, due DATE' instead of the countdown, in the same statements", async () => {
    const asOf = "2034-01-10";
    const co = await reminderCompany(t, { timeZone: "America/Los_Angeles" });
    const renewing = await co.permit(asOf, 7, { permitName: "Renewing Permit" });
    await insertRequest(t.db, renewing, {
      partyName: "Old Party",
      dueDate: addDays(asOf, 3),
      createdAt: new Date("2034-01-01T18:00:00Z"),
    });
    // The newest open request speaks; its day is the company's (03:00 UTC on the 8th is the 7th in LA).
    await insertRequest(t.db, renewing, {
      partyName: "Jane Roe",
      partyOrganization: "City Desk",
      dueDate: addDays(asOf, 5),
      createdAt: new Date("2034-01-08T03:00:00Z"),
    });
    const rider = await co.permit(asOf, 30, {
      permitName: "Rider Bond",
      recordType: "bond",
      bondAmount: "1000.00",
    });
    await insertRequest(t.db, rider, {
      documentKind: "bond_rider",
      partyName: "Sam Agent",
      dueDate: null,
      createdAt: new Date("2034-01-09T20:00:00Z"),
    });
    const other = await co.permit(asOf, 7, { permitName: "Soil Permit" });
    await insertRequest(t.db, other, {
      documentKind: "other",
      title: "Soil Report",
      partyName: "Geo Lab",
      dueDate: asOf, // due today: not overdue yet
      createdAt: new Date("2034-01-09T20:00:00Z"),
    });
    // Revoked, expired, overdue or awaiting review: the plain countdown.
    const plain = await co.permit(asOf, 1, { permitName: "Plain Permit" });
    await insertRequest(t.db, plain, {
      status: "revoked",
      revokedAt: new Date(),
      partyName: "Revoked Party",
    });
    await insertRequest(t.db, plain, { expiresAt: noon(addDays(asOf, -1)), partyName: "Expired Party" });
    await insertRequest(t.db, plain, {
      status: "approved",
      partyName: "Approved Party",
      dueDate: addDays(asOf, 9),
    });

    const { result: report, statements } = await statementsOf(t.database, () => run(asOf));
    // 4 staff reminders, and the parties' own (Jane Roe's and Old Party's 7-day, Geo Lab's on the day).
    expect(report).toMatchObject({ recorded: 4 + 3, emailsSent: 1, deliveriesSent: 4 });
    const [mail] = mailsTo(co.recipients[0]!.email);
    const body = mail!.decoded;
    expect(body).toContain(
      `Expires: ${formatDate(addDays(asOf, 7))}\n  Renewal requested from Jane Roe on Jan 7, 2034, due Jan 15, 2034\n`,
    );
    expect(body).toMatch(/Bond Rider requested from Sam Agent on Jan 9, 2034\n/);
    expect(body).toContain("Soil Report requested from Geo Lab on Jan 9, 2034, due Jan 10, 2034");
    expect(body).toContain(`Expires: ${formatDate(addDays(asOf, 1))} (1 day left)`);
    for (const name of ["Old Party", "Revoked Party", "Expired Party", "Approved Party"]) {
      expect(body).not.toContain(name);
    }
    expect(body).not.toContain("(7 days left)");
    // The HTML part: the line in the countdown's column, escaped like every user text.
    expect(body).toContain(">Renewal requested from Jane Roe on Jan 7, 2034, due Jan 15, 2034</td>");
    // Read in the statement that loads the digest's permits: no statement per permit or request.
    expect(statements.filter((s) => /document_requests/.test(s))).toHaveLength(
      // the sweep's insert (pause, overdue requests, the party's reminders), the claim's re-check, the digest
      3,
    );

    // The same run for a digest of one permit without a request sends as many statements.
    await quiesce(t.db);
    const day2 = "2034-01-20";
    const lone = await reminderCompany(t);
    await lone.permit(day2, 7);
    const single = await statementsOf(t.database, () => run(day2));
    expect(single.result).toMatchObject({ emailsSent: 1 });
    expect(single.statements.length).toBe(statements.length);
  });
});

describe("'Renewal Pending': a submission awaiting review pauses the routine reminders", () => {
  it("records no reminder or escalation for 14 days after the submission, then resumes them, once", async () => {
    const day0 = "2034-02-01";
    const co = await reminderCompany(t, { escalationDays: 7 });
    const p = await co.permit(day0, 40, { permitName: "Paused Permit" });
    const control = await co.permit(day0, 40, { permitName: "Control Permit" });
    await run(day0); // 30-day window not reached yet (40 days left)
    // Submitted on day 20 at 10:00 UTC: paused until day 34 at 10:00.
    await insertRequest(t.db, p, {
      status: "submitted",
      submittedAt: new Date(`${addDays(day0, 20)}T10:00:00Z`),
      dueDate: addDays(day0, 25),
    });
    await run(addDays(day0, 20));
    expect(await kindsOf(p.id)).toEqual([]);
    expect(await kindsOf(control.id)).toEqual(["reminder:30:sent"]);

    // Day 33 (7 days left): the control gets its 7-day reminder and escalation; the paused one nothing.
    const day33 = addDays(day0, 33);
    const preview = await previewDueReminders(t.db, { now: noon(day33), asOf: day33, reminderHour: 7 });
    // (The request, due on day 25, is overdue meanwhile: that is another section, not a reminder.)
    expect(preview.filter((i) => i.permitId === p.id).map((i) => i.kind)).toEqual(["overdue_request"]);
    expect(preview.filter((i) => i.permitId === control.id).map((i) => i.kind)).toEqual([
      "reminder",
      "escalation",
    ]);
    await run(day33);
    expect(await kindsOf(p.id)).toEqual([]);
    expect(await kindsOf(control.id)).toEqual(["escalation:7:sent", "reminder:30:sent", "reminder:7:sent"]);

    // Day 34 at noon, 14 days and 2 hours after the submission, still unreviewed: they resume, once.
    const day34 = addDays(day0, 34);
    await run(day34);
    await run(day34, new Date(`${day34}T18:00:00Z`));
    expect(await kindsOf(p.id)).toEqual(["escalation:7:sent", "reminder:7:sent"]);
    const last = mailsTo(co.recipients[0]!.email).at(-1)!;
    expect(last.decoded).toContain("Paused Permit");
    expect(last.decoded).toContain("(6 days left)");
  });

  it("cancels a reminder recorded before the submission, and sends it once the pause ends the same day", async () => {
    const asOf = "2034-03-01";
    const co = await reminderCompany(t);
    const p = await co.permit(asOf, 7, { permitName: "Raced Permit" });
    await sweepDueReminders(t.db, { now: noon(asOf), asOf, reminderHour: 7 });
    const request = await insertRequest(t.db, p, { status: "submitted", submittedAt: noon(asOf) });
    expect(await run(asOf, new Date(`${asOf}T13:00:00Z`))).toMatchObject({
      emailsSent: 0,
      deliveriesCancelled: 1,
    });
    expect(await kindsOf(p.id)).toEqual(["reminder:7:cancelled Renewal Pending"]);
    // Rejected: the request is open again, the pause is over; the next run revives and sends it.
    await t.db
      .update(documentRequests)
      .set({ status: "open", rejectReason: "Unreadable scan" })
      .where(eq(documentRequests.id, request.id));
    expect(await run(asOf, new Date(`${asOf}T14:00:00Z`))).toMatchObject({ recorded: 1, emailsSent: 1 });
    expect(await run(asOf, new Date(`${asOf}T15:00:00Z`))).toMatchObject({ recorded: 0, emailsSent: 0 });
    expect(await kindsOf(p.id)).toEqual(["reminder:7:sent"]);
    expect(mailsTo(co.recipients[0]!.email)).toHaveLength(1);
    // Open again and not overdue: the line says so.
    expect(mailsTo(co.recipients[0]!.email)[0]!.decoded).toContain("Renewal requested from Jane Roe on");
  });
});

describe("'Overdue request' in the staff digest", () => {
  const overdueRequestRows = (companyId: string) =>
    t.db
      .select()
      .from(reminderDeliveries)
      .where(
        and(eq(reminderDeliveries.companyId, companyId), eq(reminderDeliveries.kind, "overdue_request")),
      );

  it("lists the requests past their due date to the admins and the responsible person, once a day", async () => {
    const asOf = "2034-04-10";
    const co = await reminderCompany(t, { recipients: 2 });
    const [admin, user] = co.recipients;
    const responsible = await t.make.user({ role: "company-user", companyId: co.company.id });
    const mine = await co.permit(asOf, 90, {
      permitName: "Street Permit",
      responsibleUserId: responsible.id,
    });
    const theirs = await co.permit(asOf, 90, {
      permitName: "Bond Two",
      recordType: "bond",
      bondAmount: "10.00",
    });
    const waiting = await insertRequest(t.db, mine, {
      partyName: "Dana Desk",
      partyOrganization: "City <Permits>",
      dueDate: addDays(asOf, -3),
      createdAt: new Date("2034-03-20T15:00:00Z"),
    });
    const review = await insertRequest(t.db, theirs, {
      documentKind: "continuation_certificate",
      partyName: "Sam Surety",
      status: "submitted",
      submittedAt: new Date("2034-01-01T10:00:00Z"),
      dueDate: addDays(asOf, -1),
    });
    const notYet = await insertRequest(t.db, theirs, { partyName: "Not Yet", dueDate: asOf });
    await insertRequest(t.db, theirs, {
      partyName: "Revoked",
      status: "revoked",
      dueDate: addDays(asOf, -5),
    });

    await Promise.all([run(asOf), run(asOf)]);
    await run(asOf, new Date(`${asOf}T20:00:00Z`));
    const rows = await overdueRequestRows(co.company.id);
    expect(rows.map((r) => [r.recipientUserId, r.dueDate, r.permitId, r.status]).sort()).toEqual(
      [
        [admin!.id, asOf, null, "sent"],
        [responsible.id, asOf, null, "sent"],
      ].sort(),
    );
    expect(mailsTo(user!.email)).toHaveLength(0);
    const [toAdmin] = mailsTo(admin!.email);
    expect(mailsTo(admin!.email)).toHaveLength(1);
    expect(toAdmin!.subject).toBe(`Permitrack: 2 permits and bonds need attention (${co.company.name})`);
    const body = toAdmin!.decoded;
    expect(body).toContain("OVERDUE REQUEST (2)");
    expect(body).toContain(
      [
        "* Street Permit",
        `  Number: ${mine.permitNumber}`,
        "  Type: Permit",
        "  Document: Renewed Permit",
        "  Requested from: Dana Desk (City <Permits>) on Mar 20, 2034",
        "  Due: Apr 7, 2034 (3 days overdue)",
        "  State: Waiting for Dana Desk",
      ].join("\n"),
    );
    expect(body).toContain("Document: Continuation Certificate");
    expect(body).toContain("State: Submitted, awaiting review");
    expect(body).toContain("City &lt;Permits&gt;");
    expect(body).not.toContain("Not Yet");
    expect(body).not.toContain("Revoked");
    // The responsible person hears of their permit's request only.
    const toResponsible = mailsTo(responsible.email);
    expect(toResponsible).toHaveLength(1);
    expect(toResponsible[0]!.decoded).toContain("OVERDUE REQUEST (1)");
    expect(toResponsible[0]!.decoded).not.toContain("Sam Surety");

    // The next day again, once: the approved request has left it, the one due yesterday has come.
    smtp.messages.length = 0;
    await t.db.update(documentRequests).set({ status: "approved" }).where(eq(documentRequests.id, review.id));
    await run(addDays(asOf, 1));
    await run(addDays(asOf, 1));
    expect(mailsTo(admin!.email)).toHaveLength(1);
    const nextDay = mailsTo(admin!.email)[0]!.decoded;
    expect(nextDay).toContain("OVERDUE REQUEST (2)");
    expect(nextDay).toContain("Due: Apr 10, 2034 (1 day overdue)\n  State: Waiting for Not Yet");
    expect(nextDay).not.toContain("Sam Surety");
    // Revoked, they leave it; with none left, no digest.
    smtp.messages.length = 0;
    await t.db
      .update(documentRequests)
      .set({ status: "revoked", revokedAt: new Date() })
      .where(inArray(documentRequests.id, [waiting.id, notYet.id]));
    await run(addDays(asOf, 2));
    expect(mailsTo(admin!.email)).toHaveLength(0);
    expect(mailsTo(responsible.email)).toHaveLength(0);
  });

  it("is cancelled at send time when the request was answered after the sweep", async () => {
    const asOf = "2034-05-10";
    const co = await reminderCompany(t);
    const p = await co.permit(asOf, 60);
    const request = await insertRequest(t.db, p, { dueDate: addDays(asOf, -2) });
    await sweepDueReminders(t.db, { now: noon(asOf), asOf, reminderHour: 7 });
    await t.db
      .update(documentRequests)
      .set({ status: "approved" })
      .where(eq(documentRequests.id, request.id));
    await run(asOf);
    const [row] = await overdueRequestRows(co.company.id);
    expect(row).toMatchObject({ status: "cancelled", lastError: "Nothing overdue any more" });
    expect(mailsTo(co.recipients[0]!.email)).toHaveLength(0);
  });
});
