import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { addDays } from "../../../shared/domain/dates.ts";
import { documentRequests } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";
import {
  insertRequest,
  quiesce,
  reminderCompany,
  requestDeliveriesOf,
} from "../../test-support/reminder-fixtures.ts";
import { sweepDueReminders } from "./reminders.sweep.ts";

// Issue 27: the party's own reminders of a document request, recorded by the sweep (the requests
// feature's sender e-mails them; reminders.party-mail.test.ts sends them on a real SMTP server).
const t = useTestContext();
const noon = (day: string) => new Date(`${day}T12:00:00Z`);
const sweep = (asOf: string, now = noon(asOf)) => sweepDueReminders(t.db, { now, asOf, reminderHour: 7 });
/** "threshold@day it was recorded", oldest first. */
const recorded = async (requestId: string) =>
  (await requestDeliveriesOf(t.db, [requestId])).map(
    (d) => `${d.threshold}@${d.nextAttemptAt.toISOString().slice(0, 10)}`,
  );

afterEach(() => quiesce(t.db));

describe("the party's reminders: 7 and 1 days before the due date, and on it", () => {
  it("records each once, whatever the number of sweeps a day and the processes running them", async () => {
    const day0 = "2035-01-01";
    const co = await reminderCompany(t);
    const p = await co.permit(day0, 60);
    const due = addDays(day0, 10);
    const request = await insertRequest(t.db, p, { dueDate: due, createdAt: noon(addDays(day0, -5)) });
    for (let d = 0; d <= 12; d++) {
      const day = addDays(day0, d);
      await Promise.all([sweep(day), sweep(day), sweep(day, new Date(`${day}T20:00:00Z`))]);
    }
    expect(await recorded(request.id)).toEqual([
      `7@${addDays(day0, 3)}`,
      `1@${addDays(day0, 9)}`,
      `0@${addDays(day0, 10)}`,
    ]);
    const rows = await requestDeliveriesOf(t.db, [request.id]);
    expect(rows[0]).toMatchObject({
      kind: "reminder",
      companyId: co.company.id,
      dueDate: due,
      recipientEmail: request.partyEmail,
      status: "pending",
      attempts: 0,
    });
  });

  it("catches a missed day up once within its window, and records nothing once the due date has passed", async () => {
    const day0 = "2035-02-01";
    const co = await reminderCompany(t);
    const p = await co.permit(day0, 60);
    const request = await insertRequest(t.db, p, { dueDate: addDays(day0, 10), createdAt: noon(day0) });
    // Down from day 1 to day 4: on day 5 (5 days left) the 7-day reminder comes once.
    expect(await sweep(addDays(day0, 5))).toBe(1);
    expect(await sweep(addDays(day0, 6))).toBe(0);
    // Down on days 9 and 10: the 1-day and the due-day reminders are lost, none comes after.
    // (The staff's 'Overdue request' digest is recorded on these days; the party gets nothing.)
    await sweep(addDays(day0, 11));
    await sweep(addDays(day0, 30));
    expect(await recorded(request.id)).toEqual([`7@${addDays(day0, 5)}`]);
  });

  it("skips a threshold whose day came before the request was sent (company-local)", async () => {
    const day0 = "2035-03-01";
    const co = await reminderCompany(t, { timeZone: "America/Los_Angeles" });
    const p = await co.permit(day0, 60);
    const due = addDays(day0, 10);
    // Sent 3 days before the due date: no '7 days' reminder on top of the request.
    const late = await insertRequest(t.db, p, { dueDate: due, createdAt: noon(addDays(due, -3)) });
    // Sent the evening before in Los Angeles (already the due date in UTC): only the due-day one.
    const lastMinute = await insertRequest(t.db, p, {
      dueDate: due,
      createdAt: new Date(`${due}T03:00:00Z`),
    });
    // Sent on the due date: none.
    const sameDay = await insertRequest(t.db, p, { dueDate: due, createdAt: noon(due) });
    for (let d = 6; d <= 11; d++) await sweep(addDays(day0, d));
    expect(await recorded(late.id)).toEqual([`1@${addDays(due, -1)}`, `0@${due}`]);
    expect(await recorded(lastMinute.id)).toEqual([`0@${due}`]);
    expect(await recorded(sameDay.id)).toEqual([]);
  });

  it("records none for a request submitted, approved, revoked, expired or without a due date", async () => {
    const day0 = "2035-04-01";
    const co = await reminderCompany(t);
    const p = await co.permit(day0, 60);
    const base = { dueDate: addDays(day0, 7), createdAt: noon(addDays(day0, -20)) };
    const open = await insertRequest(t.db, p, base);
    const closed = [
      await insertRequest(t.db, p, { ...base, status: "submitted", submittedAt: noon(day0) }),
      await insertRequest(t.db, p, { ...base, status: "approved" }),
      await insertRequest(t.db, p, { ...base, status: "revoked", revokedAt: noon(day0) }),
      await insertRequest(t.db, p, { ...base, expiresAt: new Date(`${day0}T11:00:00Z`) }),
      await insertRequest(t.db, p, { ...base, dueDate: null }),
    ];
    await sweep(day0);
    expect(await recorded(open.id)).toEqual([`7@${day0}`]);
    expect(
      await requestDeliveriesOf(
        t.db,
        closed.map((r) => r.id),
      ),
    ).toEqual([]);
  });

  it("gives a changed due date its own reminders, and counts today in the company's zone from its reminder hour", async () => {
    const day0 = "2035-05-01";
    const co = await reminderCompany(t);
    const p = await co.permit(day0, 60);
    const request = await insertRequest(t.db, p, {
      dueDate: addDays(day0, 1),
      createdAt: noon(addDays(day0, -9)),
    });
    await sweep(day0);
    await t.db
      .update(documentRequests)
      .set({ dueDate: addDays(day0, 7) })
      .where(eq(documentRequests.id, request.id));
    await sweep(day0);
    expect((await requestDeliveriesOf(t.db, [request.id])).map((d) => [d.threshold, d.dueDate])).toEqual([
      [1, addDays(day0, 1)],
      [7, addDays(day0, 7)],
    ]);

    // 03:30 UTC on 1 June is still 31 May in Los Angeles: due on 1 June is "tomorrow" there.
    const la = await reminderCompany(t, { timeZone: "America/Los_Angeles" });
    const utc = await reminderCompany(t, { timeZone: "UTC" });
    const created = noon("2035-05-20");
    const inLa = await insertRequest(t.db, await la.permit("2035-06-01", 60), {
      dueDate: "2035-06-01",
      createdAt: created,
    });
    const inUtc = await insertRequest(t.db, await utc.permit("2035-06-01", 60), {
      dueDate: "2035-06-01",
      createdAt: created,
    });
    await sweepDueReminders(t.db, { now: new Date("2035-06-01T03:30:00Z"), reminderHour: 0 });
    expect((await requestDeliveriesOf(t.db, [inLa.id])).map((d) => d.threshold)).toEqual([1]);
    expect((await requestDeliveriesOf(t.db, [inUtc.id])).map((d) => d.threshold)).toEqual([0]);
  });
});
