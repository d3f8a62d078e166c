import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { conditionTasks, permitAudit, permits } from "../../db/schema.ts";
import { addTestTask } from "../../test-support/condition-tasks.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";
import { PERMIT_CLOSED_REASON } from "../../../shared/domain/conditions.ts";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";

/**
 * Issue 29, item 5: closing a permit with open condition tasks asks first (409 OPEN_TASKS, nothing
 * changed); with `closeOpenTasks: true` the tasks become Not Applicable – permit closed, audited, in
 * the close's transaction. The lifecycle read says how many are open, so the dialog can ask.
 */
const t = useTestContext();
const w = useWorld(t, { permits: true });
const today = () => todayIn("UTC");

async function permitWithTasks(n: number) {
  const permit = await t.make.permit({
    companyId: w.companyId,
    clientId: w.seenClientId,
    expirationDate: addDays(today(), 20),
    issueDate: "2026-01-05",
  });
  const tasks = [];
  for (let i = 0; i < n; i++)
    tasks.push(
      await addTestTask(t.db, {
        companyId: w.companyId,
        permitId: permit.id,
        dueOn: addDays(today(), i - 1),
        timeZone: "UTC",
        title: `Condition ${i + 1}`,
      }),
    );
  // One done already: it stays as it was.
  const done = await addTestTask(t.db, {
    companyId: w.companyId,
    permitId: permit.id,
    dueOn: addDays(today(), -5),
    timeZone: "UTC",
    status: "done",
  });
  return { permit, tasks, done };
}

const tasksOf = (permitId: string) =>
  t.db
    .select({ id: conditionTasks.id, status: conditionTasks.status, reason: conditionTasks.reason })
    .from(conditionTasks)
    .where(eq(conditionTasks.permitId, permitId));

describe("closing a permit with open tasks", () => {
  it("refuses without closeOpenTasks (409 OPEN_TASKS, nothing changed), then closes them Not Applicable and audits it", async () => {
    const { permit, done } = await permitWithTasks(2);
    expect((await w.admin.get(`/api/permits/${permit.id}/lifecycle`)).json().open_tasks).toBe(2);
    expect((await w.clientUser.get(`/api/permits/${permit.id}/lifecycle`)).json().open_tasks).toBe(2);

    const body = { close_date: today(), final_status: "Finaled" };
    const refused = await w.admin.post(`/api/permits/${permit.id}/close`, body);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: "OPEN_TASKS",
      message: "This permit has 2 open tasks. Closing it marks them Not Applicable.",
    });
    const [unchanged] = await t.db.select().from(permits).where(eq(permits.id, permit.id));
    expect(unchanged!.closeDate).toBeNull();
    expect((await tasksOf(permit.id)).filter((x) => x.status === "open")).toHaveLength(2);
    const notYet = await w.admin.post(`/api/permits/${permit.id}/close`, { ...body, closeOpenTasks: false });
    expect(notYet.statusCode).toBe(409);

    const closed = await w.user.post(`/api/permits/${permit.id}/close`, { ...body, closeOpenTasks: true });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().closed).toEqual({ close_date: today(), final_status: "Finaled" });
    expect(closed.json().open_tasks).toBe(0);
    const tasks = await tasksOf(permit.id);
    expect(tasks.filter((x) => x.id !== done.task.id).map((x) => [x.status, x.reason])).toEqual([
      ["not_applicable", PERMIT_CLOSED_REASON],
      ["not_applicable", PERMIT_CLOSED_REASON],
    ]);
    expect(tasks.find((x) => x.id === done.task.id)).toMatchObject({ status: "done", reason: null });
    const audit = await t.db
      .select({ action: permitAudit.action, newValue: permitAudit.newValue })
      .from(permitAudit)
      .where(and(eq(permitAudit.permitId, permit.id), eq(permitAudit.action, "task_not_applicable")));
    expect(audit).toEqual([
      { action: "task_not_applicable", newValue: PERMIT_CLOSED_REASON },
      { action: "task_not_applicable", newValue: PERMIT_CLOSED_REASON },
    ]);
  });

  it("says one open task in the singular, closes a permit without open tasks as before, and keeps client-users out", async () => {
    const { permit } = await permitWithTasks(1);
    const body = { close_date: today(), final_status: "Finaled" };
    const refused = await w.admin.post(`/api/permits/${permit.id}/close`, body);
    expect(refused.json().message).toBe("This permit has 1 open task. Closing it marks them Not Applicable.");
    expect(
      (await w.clientUser.post(`/api/permits/${permit.id}/close`, { ...body, closeOpenTasks: true }))
        .statusCode,
    ).toBe(403);
    expect(
      (await w.admin.post(`/api/permits/${w.foreignPermitId}/close`, { ...body, closeOpenTasks: true }))
        .statusCode,
    ).toBe(404);
    expect((await tasksOf(permit.id)).filter((x) => x.status === "open")).toHaveLength(1);

    const { permit: plain } = await permitWithTasks(0);
    const res = await w.admin.post(`/api/permits/${plain.id}/close`, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().open_tasks).toBe(0);
    expect(
      (await w.admin.post(`/api/permits/${plain.id}/close`, { ...body, closeOpenTasks: "yes" })).statusCode,
    ).toBe(400);
  });
});
