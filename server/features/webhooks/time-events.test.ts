import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { conditionTasks, webhookDeliveries, webhookEvents } from "../../db/schema.ts";
import { addTestTask } from "../../test-support/condition-tasks.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { statementsOf } from "../../test-support/statements.ts";
import { webhookHelpers } from "../../test-support/webhook-events.ts";
import { useWorld } from "../../test-support/world.ts";
import { addDays } from "../../../shared/domain/dates.ts";
import { recordTimeEvents } from "./index.ts";

/*
 * Issue 30, item 3: the time-driven events, each company's day in its own zone: permit.expiring in
 * the reminders' windows (30, 7, 1 days), permit.expired and task.overdue looked back a week,
 * only for open permits, only for companies with an endpoint that hears them, each once.
 */

const ZONE = "America/Denver";
// Noon in Denver on 15 June 2026 (18:00 UTC); 16 June already in Auckland.
const NOW = new Date("2026-06-15T18:00:00Z");
const TODAY = "2026-06-15";
const day = (n: number) => addDays(TODAY, n);

const t = useTestContext();
const w = useWorld(t, { company: { timeZone: ZONE } });
const h = webhookHelpers(t);
let ours: string;
let theirs: string;
let quietId: string;
const p: Record<string, string> = {};
const task: Record<string, string> = {};

beforeAll(async () => {
  ours = (await h.endpoint(w.companyId)).id;
  // The other company's endpoint hears only of expiries.
  theirs = (await h.endpoint(w.otherCompanyId, { events: ["permit.expired"] })).id;
  const make = async (key: string, over: Parameters<typeof t.make.permit>[0]) =>
    (p[key] = (await t.make.permit(over)).id);
  const mine = { companyId: w.companyId };
  await make("in20", { ...mine, expirationDate: day(20) });
  await make("in5", { ...mine, expirationDate: day(5) });
  await make("in1", { ...mine, expirationDate: day(1) });
  await make("in0", { ...mine, expirationDate: day(0) });
  await make("in8", { ...mine, expirationDate: day(8) });
  await make("in40", { ...mine, expirationDate: day(40) });
  // Renew-by date (countdown) 15 days off, the expiry 60.
  await make("lead", { ...mine, expirationDate: day(60), renewalLeadDays: 45 });
  await make("past3", { ...mine, expirationDate: day(-3) });
  await make("past30", { ...mine, expirationDate: day(-30) });
  await make("closed", { ...mine, expirationDate: day(-3), closeDate: day(-4), finalStatus: "Finaled" });
  await make("archived", { ...mine, expirationDate: day(5), archived: true });
  await make("na", { ...mine, expirationDate: day(5), status: "N/A" });
  await make("released", { ...mine, recordType: "bond", expirationDate: day(5), bondStatus: "released" });
  await make("foreignSoon", { companyId: w.otherCompanyId, expirationDate: day(5) });
  await make("foreignPast", { companyId: w.otherCompanyId, expirationDate: day(-2) });
  // A company with a disabled endpoint hears nothing.
  quietId = (await t.make.company({ name: "Quiet Co", timeZone: ZONE })).id;
  await h.endpoint(quietId, { enabled: false });
  await make("quiet", { companyId: quietId, expirationDate: day(-1) });

  const addTask = async (key: string, permitId: string, dueOn: string, over = {}) =>
    (task[key] = (
      await addTestTask(t.db, {
        companyId: w.companyId,
        permitId,
        dueOn,
        timeZone: ZONE,
        title: `Task ${key}`,
        ...over,
      })
    ).task.id);
  await addTask("late2", p.in40!, day(-2));
  await addTask("dueToday", p.in40!, day(0));
  await addTask("late10", p.in40!, day(-10));
  await addTask("done", p.in40!, day(-2), { status: "done" });
  await addTask("onClosed", p.closed!, day(-2));
  // A timed task due an hour ago (today) is overdue; one due in an hour is not.
  await addTask("timedPast", p.in40!, day(0));
  await addTask("timedLater", p.in40!, day(0));
  for (const [key, at] of [
    ["timedPast", new Date(NOW.getTime() - 3_600_000)],
    ["timedLater", new Date(NOW.getTime() + 3_600_000)],
  ] as const) {
    await t.db
      .update(conditionTasks)
      .set({ timed: true, dueAt: at })
      .where(eq(conditionTasks.id, task[key]!));
  }
});

const keysOf = async (companyId: string) =>
  (await t.db.select().from(webhookEvents).where(eq(webhookEvents.companyId, companyId)))
    .map((e) => e.dedupeKey)
    .sort();

describe("recordTimeEvents", () => {
  it("records each due event once, in one statement, with its delivery, and nothing on a second run", async () => {
    const { result: made, statements } = await statementsOf(t.database, () => recordTimeEvents(t.db, NOW));
    expect(statements).toHaveLength(1);
    expect(await keysOf(w.companyId)).toEqual(
      [
        `permit.expiring:${p.in20}:${day(20)}:30`,
        `permit.expiring:${p.in8}:${day(8)}:30`,
        `permit.expiring:${p.lead}:${day(15)}:30`,
        `permit.expiring:${p.in5}:${day(5)}:7`,
        `permit.expiring:${p.in1}:${day(1)}:1`,
        `permit.expiring:${p.in0}:${day(0)}:1`,
        `permit.expired:${p.past3}:${day(-3)}`,
        `task.overdue:${task.late2}`,
        `task.overdue:${task.timedPast}`,
      ].sort(),
    );
    // The other company hears only of its expiry; the quiet one of nothing.
    expect(await keysOf(w.otherCompanyId)).toEqual([`permit.expired:${p.foreignPast}:${day(-2)}`]);
    await h.nothingFor(quietId);
    expect(made).toBe(10);

    const expiring = await h.theEvent(p.in5!, "permit.expiring", ours);
    expect(expiring.data).toMatchObject({
      days_left: 5,
      threshold: 7,
      permit: { id: p.in5, expiration_date: day(5) },
    });
    const lead = await h.theEvent(p.lead!, "permit.expiring", ours);
    expect(lead.data).toMatchObject({ days_left: 15, threshold: 30, permit: { renew_by_date: day(15) } });
    expect((await h.theEvent(p.past3!, "permit.expired", ours)).data.permit.id).toBe(p.past3);
    await h.theEvent(p.foreignPast!, "permit.expired", theirs);
    const overdue = (await h.eventsAbout(p.in40!, "task.overdue")).find(
      (e) => e.dedupeKey === `task.overdue:${task.late2}`,
    )!;
    expect(overdue.data).toMatchObject({
      permit: { id: p.in40 },
      task: { id: task.late2, title: "Task late2", due_on: day(-2) },
    });
    expect(overdue.endpoints).toEqual([ours]);

    const events = await t.db.select({ n: sql<number>`count(*)::int` }).from(webhookEvents);
    const deliveries = await t.db.select({ n: sql<number>`count(*)::int` }).from(webhookDeliveries);
    expect(await recordTimeEvents(t.db, NOW)).toBe(0);
    expect(await t.db.select({ n: sql<number>`count(*)::int` }).from(webhookEvents)).toEqual(events);
    expect(await t.db.select({ n: sql<number>`count(*)::int` }).from(webhookDeliveries)).toEqual(deliveries);
  });

  it("the next day: a permit crossing into a lower threshold is expiring again; the rest stays recorded once", async () => {
    const tomorrow = new Date(NOW.getTime() + 86_400_000);
    const before = await keysOf(w.companyId);
    await recordTimeEvents(t.db, tomorrow);
    const added = (await keysOf(w.companyId)).filter((k) => !before.includes(k));
    // in8 is 7 days off now; in1 is due today (still the 1-day window, recorded); in0 expired yesterday.
    expect(added.sort()).toEqual(
      [
        `permit.expiring:${p.in8}:${day(8)}:7`,
        `permit.expired:${p.in0}:${day(0)}`,
        `task.overdue:${task.dueToday}`,
        `task.overdue:${task.timedLater}`,
      ].sort(),
    );
    expect(await recordTimeEvents(t.db, tomorrow)).toBe(0);
  });
});
