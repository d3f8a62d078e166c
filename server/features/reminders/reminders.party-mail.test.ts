import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";
import { formatDate } from "../../../shared/domain/format.ts";
import { documentRequests } from "../../db/schema.ts";
import { createTestContext, type TestContext } from "../../test-support/harness.ts";
import { quiesce, reminderCompany, requestDeliveriesOf } from "../../test-support/reminder-fixtures.ts";
import { startTestSmtp, type TestSmtp } from "../../test-support/test-smtp.ts";
import { sendDueRequestDeliveries } from "../requests/index.ts";
import { requestSenderIdle } from "../requests/sender-kick.ts";
import { multipart } from "../../test-support/multipart.ts";
import { runReminders } from "./reminders.service.ts";
import { sweepDueReminders } from "./reminders.sweep.ts";

// Issue 27: the party's reminders of a request made through the staff route, swept by the
// reminders and sent by the requests feature's sender, on the real mailer and a real SMTP server.
// The link's expiry is real time, so the days here are counted from today.
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
  await requestSenderIdle(t.app);
  await quiesce(t.db);
  smtp.messages.length = 0;
});

const today = todayIn("UTC");
const noon = (day: string) => new Date(`${day}T12:00:00Z`);
/** One tick on `day`: the sweep records, the requests' sender sends (as the scheduler does). */
const tick = async (day: string) => {
  const now = noon(day);
  await sweepDueReminders(t.db, { now, asOf: day, reminderHour: 7 });
  return sendDueRequestDeliveries(t.db, t.app.ctx.mailer, {
    publicUrl: PUBLIC_URL,
    links: t.app.ctx.links,
    clock: () => now,
  });
};
const mailsTo = (email: string) =>
  smtp.messages
    .filter((m) => m.to.includes(email))
    .map((m) => ({ ...m, decoded: m.decoded.replace(/=\r?\n/g, "").replace(/\r\n/g, "\n") }));
const linkIn = (text: string) =>
  text.match(/https:\/\/permits\.example\.com\/request\/[A-Za-z0-9_-]{43}/)?.[0];

/** A company, a permit, and a request of it made through POST /api/permits/:id/requests. */
async function requested(email: string, body: Record<string, unknown> = {}) {
  const co = await reminderCompany(t);
  const permit = await co.permit(today, 200, { permitName: "Street Opening", permitNumber: "SO-12" });
  const staff = await t.signIn(co.recipients[0]!);
  const res = await staff.post(`/api/permits/${permit.id}/requests`, {
    name: "Jane Roe",
    email,
    documentKind: "renewed_permit",
    dueDate: addDays(today, 12),
    fields: [],
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  await requestSenderIdle(t.app);
  return { co, permit, staff, request: res.json().request as { id: string; dueDate: string } };
}

describe("the party's reminders on a real SMTP server", () => {
  it("go out once each, 7 and 1 days before the due date and on it, with the request's own link", async () => {
    const party = "jane.roe@agency.example.com";
    const { co, request } = await requested(party);
    const [first] = mailsTo(party);
    expect(first!.subject).toBe(`${co.company.name} requests a document: Renewed Permit`);
    const link = linkIn(first!.decoded)!;
    expect(link).toBeTruthy();

    // Every day from now to past the due date, twice at once (two processes) and again later.
    for (let d = 0; d <= 14; d++) {
      const day = addDays(today, d);
      await Promise.all([tick(day), tick(day)]);
      await tick(day);
    }
    const reminders = mailsTo(party).filter((m) => m.subject.startsWith("Reminder:"));
    const due = formatDate(request.dueDate);
    expect(reminders.map((m) => m.subject)).toEqual(
      Array(3).fill(
        `Reminder: ${co.company.name} requests Renewed Permit for Street Opening (SO-12), due ${due}`,
      ),
    );
    expect(reminders.map((m) => m.decoded.match(/It is due (in 7 days, on|tomorrow,|today,)/)?.[1])).toEqual([
      "in 7 days, on",
      "tomorrow,",
      "today,",
    ]);
    for (const mail of reminders) expect(linkIn(mail.decoded)).toBe(link);
    const rows = (await requestDeliveriesOf(t.db, [request.id])).filter((r) => r.kind === "reminder");
    expect(rows.map((r) => [r.threshold, r.status, r.attempts])).toEqual([
      [7, "sent", 1],
      [1, "sent", 1],
      [0, "sent", 1],
    ]);
    // The link still opens the request.
    expect((await t.anonymous.get(`/api/request-links/${link.split("/").at(-1)}`)).statusCode).toBe(200);
  });

  it("stop once the request is submitted, approved, revoked or expired: none recorded, those recorded cancelled", async () => {
    const made = await Promise.all(
      ["submitted", "approved", "revoked", "expired", "open"].map(async (what) => ({
        what,
        party: `${what}@surety.example.com`,
        ...(await requested(`${what}@surety.example.com`)),
      })),
    );
    const byWhat = Object.fromEntries(made.map((m) => [m.what, m]));
    const day7 = addDays(today, 5); // the 7-day window: recorded for all five
    await sweepDueReminders(t.db, { now: noon(day7), asOf: day7, reminderHour: 7 });
    expect(
      (
        await requestDeliveriesOf(
          t.db,
          made.map((m) => m.request.id),
        )
      ).filter((r) => r.kind === "reminder"),
    ).toHaveLength(5);

    // Then, before the sender runs: the party submits, staff approve, revoke; a link expires.
    const set = (what: string, values: Partial<typeof documentRequests.$inferInsert>) =>
      t.db.update(documentRequests).set(values).where(eq(documentRequests.id, byWhat[what]!.request.id));
    await set("submitted", { status: "submitted", submittedAt: new Date() });
    await set("approved", { status: "approved", reviewedAt: new Date() });
    const revoke = await byWhat.revoked!.staff.post(`/api/requests/${byWhat.revoked!.request.id}/revoke`, {});
    expect(revoke.statusCode, revoke.body).toBe(200);
    await set("expired", { expiresAt: new Date(noon(day7).getTime() - 60_000) });
    await tick(day7);
    const reasons = Object.fromEntries(
      await Promise.all(
        made.map(async (m) => {
          const [row] = (await requestDeliveriesOf(t.db, [m.request.id])).filter(
            (r) => r.kind === "reminder",
          );
          return [m.what, `${row!.status}${row!.lastError ? ` ${row!.lastError}` : ""}`];
        }),
      ),
    );
    expect(reasons).toEqual({
      submitted: "cancelled Document submitted",
      approved: "cancelled The request is closed",
      revoked: "cancelled The request was revoked", // the revocation cancels its pending e-mails itself
      expired: "cancelled The link has expired",
      open: "sent",
    });
    // The later days record nothing more for them; the open one gets its 1-day and due-day reminders.
    await tick(addDays(today, 11));
    await tick(addDays(today, 12));
    for (const m of made) {
      const sent = mailsTo(m.party).filter((mail) => mail.subject.startsWith("Reminder:"));
      expect(sent, m.what).toHaveLength(m.what === "open" ? 3 : 0);
      const recorded = (await requestDeliveriesOf(t.db, [m.request.id])).filter((r) => r.kind === "reminder");
      expect(recorded, m.what).toHaveLength(m.what === "open" ? 3 : 1);
    }
  });
});

describe("the staff's reminders of a request made and answered through the app", () => {
  const staffRun = (day: string, now = noon(day)) =>
    runReminders({
      db: t.db,
      mailer: t.app.ctx.mailer,
      publicUrl: PUBLIC_URL,
      links: t.app.ctx.links,
      reminderHour: 7,
      clock: () => now,
      asOf: day,
    });

  it("say 'Renewal requested', pause while the party's submission awaits review, and resume after 14 days", async () => {
    const party = "desk@city.example.com";
    const co = await reminderCompany(t, { escalationDays: 7 });
    const staff = await t.signIn(co.recipients[0]!);
    const permit = await co.permit(today, 20, { permitName: "Street Opening", permitNumber: "SO-12" });
    const created = await staff.post(`/api/permits/${permit.id}/requests`, {
      name: "Dana Desk",
      email: party,
      documentKind: "renewed_permit",
      dueDate: addDays(today, 10),
      fields: [],
    });
    expect(created.statusCode, created.body).toBe(201);
    await requestSenderIdle(t.app);
    const token = linkIn(mailsTo(party)[0]!.decoded)!.split("/").at(-1)!;
    const adminMail = () => mailsTo(co.recipients[0]!.email).at(-1)!.decoded;

    // Today: the 30-day reminder says who was asked, when, by when.
    await staffRun(today, new Date());
    expect(adminMail()).toContain(
      `Renewal requested from Dana Desk on ${formatDate(today)}, due ${formatDate(addDays(today, 10))}`,
    );

    // The party uploads and submits through its link: 'Renewal Pending' on the permit's Reminders card.
    const upload = await t.anonymous.request({
      method: "POST",
      url: `/api/request-links/${token}/files`,
      ...multipart([
        {
          name: "file",
          filename: "renewal.pdf",
          contentType: "application/pdf",
          content: "%PDF-1.4 renewed",
        },
      ]),
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const submitted = await t.anonymous.post(`/api/request-links/${token}/submit`, { values: {} });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const card = (await staff.get(`/api/permits/${permit.id}/reminders`)).json();
    expect(Date.parse(card.renewalPendingUntil) - Date.now()).toBeGreaterThan(13.9 * 86_400_000);

    // 7 days left, 13 days after the submission: nothing for the permit (the request is overdue, though).
    smtp.messages.length = 0;
    const day13 = addDays(today, 13);
    await staffRun(day13);
    expect(adminMail()).not.toContain("DAYS BEFORE EXPIRATION");
    expect(adminMail()).not.toContain("ESCALATION");
    expect(adminMail()).toContain("OVERDUE REQUEST (1)");
    expect(adminMail()).toContain("State: Submitted, awaiting review");

    // 15 days after it, still unreviewed: the 7-day reminder and the escalation come back, once.
    smtp.messages.length = 0;
    const day15 = addDays(today, 15);
    await staffRun(day15);
    await staffRun(day15, new Date(`${day15}T18:00:00Z`));
    expect(mailsTo(co.recipients[0]!.email)).toHaveLength(1);
    expect(adminMail()).toContain("7 DAYS BEFORE EXPIRATION (1)");
    expect(adminMail()).toContain("ESCALATION: NOBODY HAS ACTED YET (1)");
    expect(adminMail()).toContain("(5 days left)");
  });
});
