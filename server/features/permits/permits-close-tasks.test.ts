import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { conditionTasks, permitAudit } from "../../db/schema.ts";
import { addTestTask } from "../../test-support/condition-tasks.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";
import { PERMIT_CLOSED_REASON } from "../../../shared/domain/conditions.ts";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";

/**
 * Issue 29, item 5, by the other door: a Close Date set on the permit form closes the permit's open
 * condition tasks as 'Close Permit' does (Not Applicable – permit closed, audited, in the form's
 * transaction), so a permit closed either way leaves no task in Tasks Due, the digests or the feed.
 */
const t = useTestContext();
const w = useWorld(t);
const today = () => todayIn("UTC");

describe("a close date on the permit form", () => {
  it("closes the open tasks Not Applicable with the permit, audited; a done task stays done", async () => {
    const project = await t.make.project({
      companyId: w.companyId,
      clientId: w.seenClientId,
      name: "Form Close",
    });
    const body = {
      permit_number: "FC-1",
      permit_name: "Grading Permit",
      record_type: "permit",
      agency: "City of Denver",
      project_id: project.id,
      expiration_date: addDays(today(), 60),
      is_required: true,
      archived: false,
    };
    const created = await w.admin.post("/api/permits", body);
    expect(created.statusCode, created.body).toBe(201);
    const permitId = created.json().id as string;
    const open = await addTestTask(t.db, {
      companyId: w.companyId,
      permitId,
      dueOn: addDays(today(), 3),
      timeZone: "UTC",
      title: "Keep the permit card posted",
    });
    const done = await addTestTask(t.db, {
      companyId: w.companyId,
      permitId,
      dueOn: addDays(today(), -3),
      timeZone: "UTC",
      status: "done",
    });

    const edited = await w.user.put(`/api/permits/${permitId}`, {
      ...body,
      permit_name: "Grading Permit (renamed)",
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const stillOpen = await t.db.select().from(conditionTasks).where(eq(conditionTasks.id, open.task.id));
    expect(stillOpen[0]!.status).toBe("open");

    const closed = await w.user.put(`/api/permits/${permitId}`, {
      ...body,
      close_date: today(),
      final_status: "Finaled",
    });
    expect(closed.statusCode, closed.body).toBe(200);
    const rows = await t.db.select().from(conditionTasks).where(eq(conditionTasks.permitId, permitId));
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(open.task.id)).toMatchObject({ status: "not_applicable", reason: PERMIT_CLOSED_REASON });
    expect(byId.get(done.task.id)!.status).toBe("done");
    const audit = await t.db.select().from(permitAudit).where(eq(permitAudit.permitId, permitId));
    expect(audit.some((a) => a.action === "task_not_applicable" && a.userId === w.userId)).toBe(true);
  });
});
