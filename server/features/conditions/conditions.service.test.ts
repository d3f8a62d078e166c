import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { PERMIT_CLOSED_REASON } from "../../../shared/domain/conditions.ts";
import { conditionTasks, permitAudit, permitConditions } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";
import { addConditions, closeOpenTasks, countOpenTasks, type NewCondition } from "./index.ts";

// The services other features call in their own transactions (a project's template permits, an
// import, a permit's close): set-based, audited.
const t = useTestContext();
const w = useWorld(t, { permits: true, company: { timeZone: "America/New_York" } });

const base: Omit<NewCondition, "permitId" | "title" | "schedule"> = {
  description: null,
  ownerUserId: null,
  evidence: "none",
  dueDate: null,
  interval: null,
  unit: null,
  startsOn: null,
  endsOn: null,
  offsetAmount: null,
  offsetUnit: null,
  milestoneName: null,
  milestoneAt: null,
  eventKind: null,
};
const actor = () => ({ userId: w.adminId, name: "Ada Admin", impersonatorId: null, impersonatorName: null });

describe("addConditions and closeOpenTasks", () => {
  it("adds conditions to several permits with their first tasks, owners and audit; closes open tasks", async () => {
    const permit = await t.make.permit({ companyId: w.companyId, responsibleUserId: w.userId });
    const other = await t.make.permit({ companyId: w.companyId });
    const added = await t.db.transaction((tx) =>
      addConditions(tx, actor(), {
        companyId: w.companyId,
        timeZone: "America/New_York",
        today: "2026-10-22",
        conditions: [
          {
            ...base,
            permitId: permit.id,
            title: "Inspect erosion controls",
            schedule: "every",
            interval: 1,
            unit: "weeks",
            startsOn: "2026-10-20",
          },
          {
            ...base,
            permitId: permit.id,
            title: "After rain",
            schedule: "after_event",
            offsetAmount: 24,
            offsetUnit: "hours",
            eventKind: "Rain ≥ 0.25 in",
          },
          {
            ...base,
            permitId: other.id,
            title: "Post the card",
            schedule: "once",
            dueDate: "2026-11-01",
            ownerUserId: w.adminId,
          },
          // Another company's permit: skipped.
          { ...base, permitId: w.foreignPermitId, title: "Nope", schedule: "once", dueDate: "2026-11-01" },
        ],
      }),
    );
    expect(added.map((a) => a.title)).toEqual(["Inspect erosion controls", "After rain", "Post the card"]);
    expect(added[1]!.taskId).toBeNull();
    const conds = await t.db.select().from(permitConditions).where(eq(permitConditions.permitId, permit.id));
    expect(conds.map((c) => c.ownerUserId)).toEqual([w.userId, w.userId]);
    const [otherCond] = await t.db
      .select()
      .from(permitConditions)
      .where(eq(permitConditions.permitId, other.id));
    expect(otherCond!.ownerUserId).toBe(w.adminId);
    expect(
      await t.db.select().from(permitConditions).where(eq(permitConditions.permitId, w.foreignPermitId)),
    ).toEqual([]);
    const [task] = await t.db.select().from(conditionTasks).where(eq(conditionTasks.permitId, permit.id));
    expect(task).toMatchObject({ occurrence: 1, dueOn: "2026-10-27", timed: false, status: "open" });
    expect(task!.dueAt.toISOString()).toBe("2026-10-28T04:00:00.000Z");
    const audit = await t.db.select().from(permitAudit).where(eq(permitAudit.permitId, permit.id));
    expect(audit.map((a) => [a.action, a.field, a.newValue])).toEqual([
      ["condition_added", "condition", "Inspect erosion controls (Every week)"],
      ["task_created", "task", "Inspect erosion controls due 2026-10-27"],
      ["condition_added", "condition", "After rain (Within 24 hours of Rain ≥ 0.25 in)"],
    ]);

    expect(await countOpenTasks(t.db, permit.id)).toBe(1);
    const closed = await t.db.transaction((tx) =>
      closeOpenTasks(tx, { id: permit.id, companyId: w.companyId }, PERMIT_CLOSED_REASON, actor()),
    );
    expect(closed).toBe(1);
    expect(await countOpenTasks(t.db, permit.id)).toBe(0);
    const [after] = await t.db.select().from(conditionTasks).where(eq(conditionTasks.id, task!.id));
    expect(after).toMatchObject({
      status: "not_applicable",
      reason: PERMIT_CLOSED_REASON,
      completedByName: "Ada Admin",
    });
    const last = (await t.db.select().from(permitAudit).where(eq(permitAudit.permitId, permit.id))).at(-1);
    expect(last).toMatchObject({
      action: "task_not_applicable",
      field: "task",
      oldValue: "Inspect erosion controls due 2026-10-27",
      newValue: PERMIT_CLOSED_REASON,
    });
    // The other permit's task is untouched.
    expect(await countOpenTasks(t.db, other.id)).toBe(1);
  });
});
