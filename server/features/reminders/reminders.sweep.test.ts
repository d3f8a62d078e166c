import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { addDays } from "../../../shared/domain/dates.ts";
import { permits, users } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { quiesce, recordedPairs, reminderCompany } from "../../test-support/reminder-fixtures.ts";
import { previewDueReminders } from "./reminders.preview.ts";
import { sweepDueReminders } from "./reminders.sweep.ts";

const t = useTestContext();
const NOW = new Date("2030-06-01T12:00:00Z");
const sweep = (asOf: string, now = NOW) => sweepDueReminders(t.db, { now, asOf, reminderHour: 7 });

afterEach(() => quiesce(t.db));

describe("the sweep: which (permit, threshold, recipient) is due", () => {
  it("records each permit under the lowest threshold it has reached, and nothing for the rest", async () => {
    const asOf = "2030-06-01";
    const co = await reminderCompany(t);
    const ids = {
      d31: (await co.permit(asOf, 31)).id,
      d30: (await co.permit(asOf, 30)).id,
      d20: (await co.permit(asOf, 20)).id,
      d8: (await co.permit(asOf, 8)).id,
      d7: (await co.permit(asOf, 7)).id,
      d3: (await co.permit(asOf, 3)).id,
      d1: (await co.permit(asOf, 1)).id,
      d0: (await co.permit(asOf, 0)).id,
      expired: (await co.permit(asOf, -1)).id,
      archived: (await co.permit(asOf, 7, { archived: true })).id,
      na: (await co.permit(asOf, 7, { status: "N/A" })).id,
      undated: (await co.permit(asOf, 0, { expirationDate: null })).id,
      bond: (await co.permit(asOf, 7, { recordType: "bond", bondAmount: "1000.00" })).id,
    };
    expect(await sweep(asOf)).toBe(8);
    expect(await recordedPairs(t.db, ids)).toEqual([
      "bond:7",
      "d0:1",
      "d1:1",
      "d20:30",
      "d30:30",
      "d3:7",
      "d7:7",
      "d8:30",
    ]);
    // The unique key makes a second sweep (another process, a restart) record nothing.
    expect(await sweep(asOf)).toBe(0);
    const [row] = (await co.deliveries()).filter((d) => d.permitId === ids.d7);
    expect(row).toMatchObject({
      status: "pending",
      dueDate: asOf,
      expirationDate: addDays(asOf, 7),
      recipientUserId: co.recipients[0]!.id,
      recipientEmail: co.recipients[0]!.email,
      attempts: 0,
    });
  });

  it("catches a missed day up once, and a permit created 5 days before expiry gets only its 7-day reminder", async () => {
    const day0 = "2030-07-01";
    const co = await reminderCompany(t);
    const tracked = await co.permit(day0, 10);
    expect(await sweep(day0)).toBe(1); // 30-day
    // The server is down for days 1..4; on day 5 (5 days left) the 7-day reminder comes once.
    expect(await sweep(addDays(day0, 5))).toBe(1);
    expect(await sweep(addDays(day0, 6))).toBe(0);
    expect(await sweep(addDays(day0, 9))).toBe(1); // 1 day left
    expect(await recordedPairs(t.db, { tracked: tracked.id })).toEqual([
      "tracked:1",
      "tracked:30",
      "tracked:7",
    ]);

    const late = await co.permit(day0, 5);
    expect(await sweep(day0)).toBe(1);
    expect(await recordedPairs(t.db, { late: late.id })).toEqual(["late:7"]);
  });

  it("honours the company's switches: the window of a threshold reaches down to the next one switched on", async () => {
    const asOf = "2030-08-01";
    const no30 = await reminderCompany(t, { switches: { email30Day: false } });
    const a = { d20: (await no30.permit(asOf, 20)).id, d5: (await no30.permit(asOf, 5)).id };
    const no7 = await reminderCompany(t, { switches: { email7Day: false } });
    const b = {
      d20: (await no7.permit(asOf, 20)).id,
      d5: (await no7.permit(asOf, 5)).id,
      d1: (await no7.permit(asOf, 1)).id,
    };
    const only30 = await reminderCompany(t, { switches: { email7Day: false, email1Day: false } });
    const c = { d0: (await only30.permit(asOf, 0)).id, dMinus: (await only30.permit(asOf, -2)).id };
    const off = await reminderCompany(t, {
      switches: { email30Day: false, email7Day: false, email1Day: false },
    });
    const d = { d1: (await off.permit(asOf, 1)).id, d7: (await off.permit(asOf, 7)).id };
    await sweep(asOf);
    expect(await recordedPairs(t.db, a)).toEqual(["d5:7"]);
    expect(await recordedPairs(t.db, b)).toEqual(["d1:1", "d20:30", "d5:30"]);
    expect(await recordedPairs(t.db, c)).toEqual(["d0:30"]);
    expect(await recordedPairs(t.db, d)).toEqual([]);
  });

  it("records per recipient, skips disabled users and client-users, and a company without recipients", async () => {
    const asOf = "2030-09-01";
    const co = await reminderCompany(t, { recipients: 3 });
    await t.db.update(users).set({ banned: true }).where(eq(users.id, co.recipients[1]!.id));
    await t.db.update(users).set({ role: "client-user" }).where(eq(users.id, co.recipients[2]!.id));
    await co.permit(asOf, 7);
    const silent = await reminderCompany(t, { recipients: 0 });
    await silent.permit(asOf, 7);
    expect(await sweep(asOf)).toBe(1);
    expect((await co.deliveries()).map((d) => d.recipientUserId)).toEqual([co.recipients[0]!.id]);
    expect(await silent.deliveries()).toEqual([]);
  });

  it("gives a changed expiration date its own reminders", async () => {
    const asOf = "2030-10-01";
    const co = await reminderCompany(t);
    const p = await co.permit(asOf, 7);
    expect(await sweep(asOf)).toBe(1);
    await t.db
      .update(permits)
      .set({ expirationDate: addDays(asOf, 6) })
      .where(eq(permits.id, p.id));
    expect(await sweep(asOf)).toBe(1);
    expect((await co.deliveries()).map((d) => [d.threshold, d.expirationDate])).toEqual([
      [7, addDays(asOf, 7)],
      [7, addDays(asOf, 6)],
    ]);
  });

  it("computes today in each company's time zone: the same instant is another day on each side of midnight", async () => {
    // 03:30 UTC on 1 March is still 28 February in Los Angeles.
    const instant = new Date("2031-03-01T03:30:00Z");
    const utc = await reminderCompany(t, { timeZone: "UTC", switches: { email30Day: false } });
    const la = await reminderCompany(t, { timeZone: "America/Los_Angeles", switches: { email30Day: false } });
    await utc.permit("2031-03-01", 7);
    await la.permit("2031-03-01", 7);
    await sweepDueReminders(t.db, { now: instant, reminderHour: 0 });
    expect((await utc.deliveries()).map((d) => [d.threshold, d.dueDate])).toEqual([[7, "2031-03-01"]]);
    expect(await la.deliveries()).toEqual([]); // 8 days left there
    // Half past midnight in Los Angeles: its 1 March has begun.
    await sweepDueReminders(t.db, { now: new Date("2031-03-01T08:30:00Z"), reminderHour: 0 });
    expect((await la.deliveries()).map((d) => [d.threshold, d.dueDate])).toEqual([[7, "2031-03-01"]]);
  });

  it("starts a company's reminder day at REMINDER_HOUR in its own zone", async () => {
    const tokyo = await reminderCompany(t, { timeZone: "Asia/Tokyo", switches: { email30Day: false } });
    await tokyo.permit("2031-04-10", 7); // expires 17 April
    // 06:59 in Tokyo on 10 April: still the 9th for reminders (8 days left, nothing due).
    await sweepDueReminders(t.db, { now: new Date("2031-04-09T21:59:00Z"), reminderHour: 7 });
    expect(await tokyo.deliveries()).toEqual([]);
    await sweepDueReminders(t.db, { now: new Date("2031-04-09T22:00:00Z"), reminderHour: 7 });
    expect((await tokyo.deliveries()).map((d) => d.dueDate)).toEqual(["2031-04-10"]);
  });

  it("previews without writing: due now plus what is already waiting", async () => {
    const asOf = "2030-11-01";
    const co = await reminderCompany(t);
    const waiting = await co.permit(asOf, 25);
    await sweep(asOf);
    const fresh = await co.permit(asOf, 3, { permitName: "Grading <Phase 2>" });
    const before = (await co.deliveries()).length;
    const items = await previewDueReminders(t.db, { now: NOW, asOf, reminderHour: 7 });
    const mine = items.filter((i) => i.recipientEmail === co.recipients[0]!.email);
    expect(mine.map((i) => [i.permitId, i.threshold, i.daysLeft])).toEqual([
      [waiting.id, 30, 25],
      [fresh.id, 7, 3],
    ]);
    expect(mine[1]).toMatchObject({
      permitName: "Grading <Phase 2>",
      companyName: co.company.name,
      dueDate: asOf,
    });
    expect((await co.deliveries()).length).toBe(before);
  });

  it("previews escalations and the overdue digest too, in the one e-mail of the day, writing nothing", async () => {
    const asOf = "2030-12-01";
    const co = await reminderCompany(t, { escalationDays: 7, overdueDigest: true });
    const soon = await co.permit(asOf, 5, { permitName: "Encroachment" });
    const late = await co.permit(asOf, -4, { permitName: "Grading" });
    await co.permit(asOf, -9, { permitName: "Closed one", finalStatus: "Finaled", closeDate: asOf });
    const items = await previewDueReminders(t.db, { now: NOW, asOf, reminderHour: 7 });
    const admin = items.filter((i) => i.recipientEmail === co.recipients[0]!.email);
    expect(admin.map((i) => [i.kind, i.permitId, i.threshold, i.daysLeft])).toEqual([
      ["reminder", soon.id, 7, 5],
      ["escalation", soon.id, 7, 5],
      ["overdue", late.id, 0, -4],
    ]);
    expect(await co.deliveries()).toEqual([]);

    // Recorded and waiting, they are still listed once each.
    await sweep(asOf);
    const recorded = (await co.deliveries()).map((d) => d.kind).sort();
    expect(recorded).toEqual(["escalation", "overdue", "reminder"]);
    const again = await previewDueReminders(t.db, { now: NOW, asOf, reminderHour: 7 });
    expect(again.filter((i) => i.recipientEmail === co.recipients[0]!.email)).toEqual(admin);
  });
});
