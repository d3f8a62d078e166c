import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../../shared/domain/dates.ts";
import { formatDate } from "../../../shared/domain/format.ts";
import { conditionTasks, reminderDeliveries } from "../../db/schema.ts";
import { createTestContext, type TestContext } from "../../test-support/harness.ts";
import { insertTask, quiesce, reminderCompany } from "../../test-support/reminder-fixtures.ts";
import { startTestSmtp, type TestSmtp } from "../../test-support/test-smtp.ts";
import { runReminders } from "./reminders.service.ts";
import { sweepDueReminders } from "./reminders.sweep.ts";

// Issue 29 on the real mailer and a real SMTP server: a condition's task in its owner's digest 7
// days ahead and once overdue, escalated to the admins after Escalation Days, each exactly once.
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

const clockOf = (asOf: string) => new Date(`${asOf}T12:00:00Z`);
const run = async (asOf: string, opts: { dryRun?: boolean } = {}) =>
  runReminders({
    db: t.db,
    mailer: t.app.ctx.mailer,
    publicUrl: PUBLIC_URL,
    links: t.app.ctx.links,
    reminderHour: 7,
    clock: () => clockOf(asOf),
    asOf,
    ...opts,
  });
const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email));
const taskDeliveries = async (taskId: string) =>
  (await t.db.select().from(reminderDeliveries).where(eq(reminderDeliveries.taskId, taskId)))
    .map((d) => `${d.kind}:${d.recipientEmail}:${d.status}${d.lastError ? `:${d.lastError}` : ""}`)
    .sort();

/** A company whose permit expires far away (no permit reminder), with an owner of its conditions. */
async function taskCompany(asOf: string, opts: { escalationDays?: number } = {}) {
  const co = await reminderCompany(t, { escalationDays: opts.escalationDays ?? 0 });
  const owner = await t.make.user({ role: "company-user", companyId: co.company.id });
  const permit = await co.permit(asOf, 200, { permitName: "Grading Permit", permitNumber: "GR-1029" });
  return { ...co, makePermit: co.permit, admin: co.recipients[0]!, owner, permit: permit };
}

describe("a task due within 7 days", () => {
  it("appears once in its owner's digest: title, permit, project, due date, link; not a day early, not twice", async () => {
    const asOf = "2034-03-01";
    const co = await taskCompany(asOf);
    const soon = await insertTask(t.db, co.permit, {
      title: "Inspect erosion <controls>",
      ownerUserId: co.owner.id,
      dueOn: addDays(asOf, 7),
    });
    const later = await insertTask(t.db, co.permit, {
      title: "Submit traffic plan",
      ownerUserId: co.owner.id,
      dueOn: addDays(asOf, 8),
    });
    const report = await run(asOf);
    expect(report.recorded).toBe(1);
    expect(await taskDeliveries(soon.taskId)).toEqual([`task_due:${co.owner.email}:sent`]);
    expect(await taskDeliveries(later.taskId)).toEqual([]);
    const mails = mailsTo(co.owner.email);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe(`Permitrack: 1 task needs attention (${co.company.name})`);
    expect(mail.decoded).toContain("TASKS (1)");
    expect(mail.decoded).toContain("* Inspect erosion <controls>");
    expect(mail.decoded).toContain("Permit: Grading Permit (GR-1029)");
    expect(mail.decoded).toContain(`Project: ${co.project.name}`);
    expect(mail.decoded).toContain(`Due: ${formatDate(addDays(asOf, 7))}`);
    expect(mail.decoded).toContain("7 days left");
    expect(mail.decoded).toContain(`${PUBLIC_URL}/permits/${co.permit.id}`);
    // The HTML part escapes the title.
    expect(mail.decoded).toContain("Inspect erosion &lt;controls&gt;");
    // The admin (a reminder recipient) hears nothing of another's task.
    expect(mailsTo(co.admin.email)).toEqual([]);

    // The next sweep and send of the day, and of the next days while it is not overdue: nothing new.
    expect((await run(asOf)).emailsSent).toBe(0);
    smtp.messages.length = 0;
    const next = await run(addDays(asOf, 1));
    // The 8-day one came into the window; the 7-day one is not repeated.
    expect(next.recorded).toBe(1);
    expect(mailsTo(co.owner.email)).toHaveLength(1);
    expect(mailsTo(co.owner.email)[0]!.decoded).toContain("Submit traffic plan");
    expect(mailsTo(co.owner.email)[0]!.decoded).not.toContain("Inspect erosion");
    expect(await taskDeliveries(soon.taskId)).toEqual([`task_due:${co.owner.email}:sent`]);
  });

  it("goes to the permit's responsible person when the condition names no owner, never to a client-user or a disabled one", async () => {
    const asOf = "2034-03-10";
    const co = await taskCompany(asOf);
    const responsible = await t.make.user({ role: "company-user", companyId: co.company.id });
    const permit = await co.makePermit(asOf, 300, { responsibleUserId: responsible.id });
    const a = await insertTask(t.db, permit, { title: "Post permit card", ownerUserId: null, dueOn: asOf });
    const client = await t.make.client(co.company.id);
    const clientUser = await t.make.user({ role: "client-user", companyId: co.company.id, clientIds: [client.id] });
    const b = await insertTask(t.db, co.permit, { title: "Client's", ownerUserId: clientUser.id, dueOn: asOf });
    const banned = await t.make.user({ role: "company-user", companyId: co.company.id, banned: true });
    const c = await insertTask(t.db, co.permit, { title: "Banned's", ownerUserId: banned.id, dueOn: asOf });
    await run(asOf);
    expect(await taskDeliveries(a.taskId)).toEqual([`task_due:${responsible.email}:sent`]);
    expect(mailsTo(responsible.email)[0]!.decoded).toContain("due today");
    expect(await taskDeliveries(b.taskId)).toEqual([]);
    expect(await taskDeliveries(c.taskId)).toEqual([]);
  });

  it("is cancelled at send time when the task was completed or made not applicable meanwhile", async () => {
    const asOf = "2034-03-20";
    const co = await taskCompany(asOf);
    const done = await insertTask(t.db, co.permit, { title: "Done one", ownerUserId: co.owner.id, dueOn: asOf });
    const na = await insertTask(t.db, co.permit, { title: "N/A one", ownerUserId: co.owner.id, dueOn: asOf });
    expect(await sweepDueReminders(t.db, { now: clockOf(asOf), asOf, reminderHour: 7 })).toBe(2);
    expect(await taskDeliveries(done.taskId)).toEqual([`task_due:${co.owner.email}:pending`]);
    await t.db
      .update(conditionTasks)
      .set({ status: "done", completedAt: new Date(), completedBy: co.owner.id })
      .where(eq(conditionTasks.id, done.taskId));
    await t.db
      .update(conditionTasks)
      .set({ status: "not_applicable", completedAt: new Date(), reason: "No work this week" })
      .where(eq(conditionTasks.id, na.taskId));
    const report = await run(asOf);
    expect(report.deliveriesCancelled).toBe(2);
    expect(report.emailsSent).toBe(0);
    expect(mailsTo(co.owner.email)).toEqual([]);
    expect(await taskDeliveries(done.taskId)).toEqual([`task_due:${co.owner.email}:cancelled:Task completed`]);
    expect(await taskDeliveries(na.taskId)).toEqual([`task_due:${co.owner.email}:cancelled:Task not applicable`]);
  });

  it("leaves out tasks of closed or archived permits and of removed conditions", async () => {
    const asOf = "2034-03-25";
    const co = await taskCompany(asOf);
    const closed = await co.makePermit(asOf, 100, { finalStatus: "Finaled", closeDate: asOf });
    const archived = await co.makePermit(asOf, 100, { archived: true });
    const a = await insertTask(t.db, closed, { title: "Closed's", ownerUserId: co.owner.id, dueOn: asOf });
    const b = await insertTask(t.db, archived, { title: "Archived's", ownerUserId: co.owner.id, dueOn: asOf });
    const c = await insertTask(t.db, co.permit, { title: "Removed's", ownerUserId: co.owner.id, dueOn: asOf });
    await t.db.execute(sql`update permit_conditions set removed_at = now() where id = ${c.conditionId}`);
    await run(asOf);
    for (const task of [a, b, c]) expect(await taskDeliveries(task.taskId)).toEqual([]);
    expect(mailsTo(co.owner.email)).toEqual([]);
  });
});

describe("an overdue task", () => {
  it("is listed once as overdue in its owner's digest, with when it fell due (a timed one with its time)", async () => {
    const asOf = "2034-04-05";
    const co = await taskCompany(asOf);
    const dated = await insertTask(t.db, co.permit, {
      title: "Weekly inspection",
      ownerUserId: co.owner.id,
      dueOn: addDays(asOf, -3),
    });
    // 24 hours after a rain event at 09:30 UTC two days ago.
    const timed = await insertTask(t.db, co.permit, {
      title: "Inspect after rain",
      ownerUserId: co.owner.id,
      dueAt: new Date(`${addDays(asOf, -1)}T09:30:00Z`),
    });
    const report = await run(asOf);
    expect(report.recorded).toBe(2);
    const mails = mailsTo(co.owner.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.decoded).toContain("TASKS (2)");
    expect(mails[0]!.decoded).toContain(`Overdue since ${formatDate(addDays(asOf, -3))}`);
    expect(mails[0]!.decoded).toContain(`Overdue since ${formatDate(addDays(asOf, -1))}, 9:30 AM`);
    expect(await taskDeliveries(dated.taskId)).toEqual([`task_overdue:${co.owner.email}:sent`]);
    expect(await taskDeliveries(timed.taskId)).toEqual([`task_overdue:${co.owner.email}:sent`]);
    smtp.messages.length = 0;
    for (const day of [asOf, addDays(asOf, 1), addDays(asOf, 2)]) {
      const again = await run(day);
      expect(again.recorded).toBe(0);
    }
    expect(smtp.messages).toEqual([]);
  });

  it("escalates to the company admins once after Escalation Days, not before, and never with 0", async () => {
    const asOf = "2034-05-01";
    const co = await taskCompany(asOf, { escalationDays: 3 });
    const secondAdmin = await t.make.user({ role: "company-admin", companyId: co.company.id });
    // Due by the end of 29 April (UTC): overdue since 30 April 00:00, escalated from 3 May 00:00.
    const task = await insertTask(t.db, co.permit, {
      title: "Submit monitoring report",
      ownerUserId: co.owner.id,
      dueOn: addDays(asOf, -2),
    });
    const off = await taskCompany(asOf, { escalationDays: 0 });
    const offTask = await insertTask(t.db, off.permit, {
      title: "Never escalated",
      ownerUserId: off.owner.id,
      dueOn: addDays(asOf, -2),
    });
    await run(asOf);
    expect(mailsTo(co.admin.email)).toEqual([]);
    expect(await taskDeliveries(task.taskId)).toEqual([`task_overdue:${co.owner.email}:sent`]);
    await run(addDays(asOf, 1));
    expect(mailsTo(co.admin.email)).toEqual([]);

    smtp.messages.length = 0;
    await run(addDays(asOf, 2));
    for (const admin of [co.admin, secondAdmin]) {
      const mails = mailsTo(admin.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.decoded).toContain("OVERDUE TASKS (1)");
      expect(mails[0]!.decoded).toContain("* Submit monitoring report");
      expect(mails[0]!.decoded).toContain(`Overdue since ${formatDate(addDays(asOf, -2))}`);
    }
    expect(mailsTo(co.owner.email)).toEqual([]);
    expect(await taskDeliveries(task.taskId)).toEqual(
      [
        `task_escalation:${co.admin.email}:sent`,
        `task_escalation:${secondAdmin.email}:sent`,
        `task_overdue:${co.owner.email}:sent`,
      ].sort(),
    );
    smtp.messages.length = 0;
    await run(addDays(asOf, 3));
    await run(addDays(asOf, 10));
    expect(mailsTo(co.admin.email)).toEqual([]);
    expect(mailsTo(off.admin.email)).toEqual([]);
    expect(await taskDeliveries(offTask.taskId)).toEqual([`task_overdue:${off.owner.email}:sent`]);
  });
});

describe("a logged rain event", () => {
  it("makes the triggered condition's task through Log Event, and the owner's digest shows it once", async () => {
    const asOf = "2034-07-01";
    const co = await taskCompany(asOf);
    // An 'After an event' condition: within 24 hours of 'Rain ≥ 0.25 in' (as the conditions card stores it).
    await t.db.execute(sql`insert into permit_conditions (company_id, permit_id, title, owner_user_id, schedule,
                             offset_amount, offset_unit, event_kind)
                           values (${co.company.id}, ${co.permit.id}, 'Inspect BMPs after rain', ${co.owner.id},
                                   'after_event', 24, 'hours', 'Rain ≥ 0.25 in')`);
    const res = await (await t.signIn(co.admin)).post(`/api/projects/${co.project.id}/events`, {
      kind: "rain ≥ 0.25 in",
      occurredAt: `${asOf}T08:00`,
      note: "0.4 in overnight",
    });
    expect(res.statusCode).toBe(201);
    const [task] = await t.db.select().from(conditionTasks).where(eq(conditionTasks.permitId, co.permit.id));
    expect(task).toMatchObject({ status: "open", timed: true, dueOn: addDays(asOf, 1) });
    await run(asOf);
    const mails = mailsTo(co.owner.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.decoded).toContain("* Inspect BMPs after rain");
    expect(mails[0]!.decoded).toContain(`Due: ${formatDate(addDays(asOf, 1))}, 8:00 AM`);
    expect(mails[0]!.decoded).toContain("1 day left");
    expect(await taskDeliveries(task!.id)).toEqual([`task_due:${co.owner.email}:sent`]);
    smtp.messages.length = 0;
    expect((await run(asOf)).recorded).toBe(0);
    expect(smtp.messages).toEqual([]);
  });
});

describe("tasks in the company's own digests", () => {
  it("never shows company B's tasks in company A's digest, even when B's condition names A's user", async () => {
    const asOf = "2034-06-01";
    const a = await taskCompany(asOf, { escalationDays: 1 });
    const b = await taskCompany(asOf, { escalationDays: 1 });
    await insertTask(t.db, a.permit, { title: "A's task", ownerUserId: a.owner.id, dueOn: asOf });
    await insertTask(t.db, a.permit, { title: "A's late task", ownerUserId: a.owner.id, dueOn: addDays(asOf, -5) });
    await insertTask(t.db, b.permit, { title: "B's task", ownerUserId: b.owner.id, dueOn: asOf });
    await insertTask(t.db, b.permit, { title: "B's late task", ownerUserId: b.owner.id, dueOn: addDays(asOf, -5) });
    const stray = await insertTask(t.db, b.permit, { title: "B's stray", ownerUserId: a.owner.id, dueOn: asOf });
    await run(asOf);
    const ofA = [...mailsTo(a.owner.email), ...mailsTo(a.admin.email)].map((m) => m.decoded).join("\n");
    const ofB = [...mailsTo(b.owner.email), ...mailsTo(b.admin.email)].map((m) => m.decoded).join("\n");
    expect(ofA).toContain("A's task");
    expect(ofA).toContain("A's late task");
    expect(ofA).not.toContain("B's");
    expect(ofB).toContain("B's task");
    expect(ofB).toContain("B's late task");
    expect(ofB).not.toContain("A's");
    expect(await taskDeliveries(stray.taskId)).toEqual([]);
  });

  it("shares the day's one e-mail with the permit reminders, and the dry run lists the tasks", async () => {
    const asOf = "2034-06-10";
    const co = await taskCompany(asOf);
    const own = await co.makePermit(asOf, 7, { permitName: "Expiring Permit", responsibleUserId: co.owner.id });
    await insertTask(t.db, own, { title: "Renewal inspection", ownerUserId: co.owner.id, dueOn: addDays(asOf, 2) });
    const dry = await run(asOf, { dryRun: true });
    const preview = dry.wouldSend.find((d) => d.recipientEmail === co.owner.email);
    expect(preview?.items.map((i) => [i.kind, i.taskTitle ?? null, i.daysLeft])).toEqual([
      ["reminder", null, 7],
      ["task_due", "Renewal inspection", 2],
    ]);
    expect(smtp.messages).toEqual([]);
    await run(asOf);
    const mails = mailsTo(co.owner.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.decoded).toContain("7 DAYS BEFORE EXPIRATION (1)");
    expect(mails[0]!.decoded).toContain("TASKS (1)");
    expect(mails[0]!.subject).toBe(`Permitrack: 2 items need attention (${co.company.name})`);
  });

  it("shows task deliveries in the permit's reminder log, labelled with the task", async () => {
    const asOf = "2034-06-20";
    const co = await taskCompany(asOf);
    const task = await insertTask(t.db, co.permit, { title: "Keep card posted", ownerUserId: co.owner.id, dueOn: asOf });
    await run(asOf);
    const res = await (await t.signIn(co.admin)).get(`/api/permits/${co.permit.id}/reminders`);
    expect(res.statusCode).toBe(200);
    expect(res.json().deliveries).toEqual([
      expect.objectContaining({
        kind: "task_due",
        recipientEmail: co.owner.email,
        status: "sent",
        task: { id: task.taskId, title: "Keep card posted", dueOn: asOf },
      }),
    ]);
    const [row] = await t.db
      .select()
      .from(reminderDeliveries)
      .where(and(eq(reminderDeliveries.taskId, task.taskId), eq(reminderDeliveries.kind, "task_due")));
    expect(row).toMatchObject({ permitId: co.permit.id, expirationDate: asOf, dueDate: asOf, threshold: 0 });
  });
});
