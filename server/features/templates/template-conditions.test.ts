import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents, conditionTasks, permitAudit, permitConditions, permits } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { freshCompany, useWorld } from "../../test-support/world.ts";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";
import type { Template } from "../../../shared/schemas/templates.ts";

/**
 * Issue 29: templates carry conditions (create, replace on update, read with the schedule in
 * words), and a new project's template permits get them with their first tasks.
 */
const t = useTestContext();
const w = useWorld(t);
const ZONE = "America/New_York";

const CONDITIONS = [
  { title: "Post the permit card", schedule: "once", dueDays: 3, evidence: "photo" },
  { title: "Inspect erosion controls", schedule: "every", interval: 7, unit: "days", description: "BMPs" },
  {
    title: "Notify the inspector",
    schedule: "before_event",
    offsetAmount: 48,
    offsetUnit: "hours",
    milestoneName: "Pour",
  },
  {
    title: "Inspect after rain",
    schedule: "after_event",
    offsetAmount: 24,
    offsetUnit: "hours",
    eventKind: "Rain ≥ 0.25 in",
  },
];

describe("template conditions", () => {
  it("creates a template with conditions, reads them back in order with their schedules in words, and replaces them on update", async () => {
    const { company, admin } = await freshCompany(t, { timeZone: ZONE });
    const res = await admin.post("/api/templates", {
      name: "Grading",
      // A field another schedule would use is not stored.
      conditions: CONDITIONS.map((c) => ({ ...c, dueDays: c.dueDays ?? 9 })),
    });
    expect(res.statusCode, res.body).toBe(201);
    const template = res.json().template as Template;
    expect(template.conditions.map((c) => [c.title, c.schedule, c.scheduleText])).toEqual([
      ["Post the permit card", "once", "Once, due 3 days after the permit is made"],
      ["Inspect erosion controls", "every", "Every 7 days from the day the permit is made"],
      ["Notify the inspector", "before_event", "48 hours before Pour"],
      ["Inspect after rain", "after_event", "Within 24 hours of Rain ≥ 0.25 in"],
    ]);
    expect(template.conditions[0]).toMatchObject({ evidence: "photo", dueDays: 3, interval: null });
    expect(template.conditions[1]).toMatchObject({
      description: "BMPs",
      dueDays: null,
      interval: 7,
      unit: "days",
    });
    const listed = (await admin.get("/api/templates")).json().templates as Template[];
    expect(listed.find((x) => x.id === template.id)!.conditions).toEqual(template.conditions);

    const put = await admin.put(`/api/templates/${template.id}`, {
      name: "Grading",
      conditions: [{ title: "Sweep the street", schedule: "every", interval: 1, unit: "weeks" }],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().template.conditions.map((c: { scheduleText: string }) => c.scheduleText)).toEqual([
      "Every week from the day the permit is made",
    ]);
    // Without conditions the update leaves them; a PATCH too.
    await admin.put(`/api/templates/${template.id}`, { name: "Grading 2" });
    await admin.patch(`/api/templates/${template.id}`, { active: false });
    const kept = (await admin.get("/api/templates")).json().templates as Template[];
    expect(kept.find((x) => x.id === template.id)!.conditions.map((c) => c.title)).toEqual([
      "Sweep the street",
    ]);
    const [event] = await t.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, template.id), eq(auditEvents.action, "update")))
      .orderBy(asc(auditEvents.createdAt))
      .limit(1);
    expect(JSON.stringify(event!.details)).toContain("Sweep the street");
    void company;
  });

  it("refuses a bad condition (400, nothing saved) and another company's template (404)", async () => {
    const { admin } = await freshCompany(t, { timeZone: ZONE });
    const bad = await admin.post("/api/templates", {
      name: "Bad",
      conditions: [{ title: "Every what?", schedule: "every", interval: 7 }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/Unit is required/);
    expect((await admin.get("/api/templates")).json().templates).toEqual([]);
    const foreign = await t.make.template({ companyId: w.otherCompanyId, name: "Foreign" });
    const put = await admin.put(`/api/templates/${foreign.id}`, { name: "Mine", conditions: [] });
    expect(put.statusCode).toBe(404);
    expect((await w.user.post("/api/templates", { name: "X", conditions: [] })).statusCode).toBe(403);
  });

  it("copies each template's conditions onto the permits a new project makes, with their first tasks", async () => {
    const { company, admin } = await freshCompany(t, { timeZone: ZONE });
    const created = await admin.post("/api/templates", { name: "Grading", conditions: CONDITIONS });
    expect(created.statusCode, created.body).toBe(201);
    await admin.post("/api/templates", { name: "Building" });
    const res = await admin.post("/api/projects", { name: "Tower", project_number: "T-1" });
    expect(res.statusCode, res.body).toBe(201);
    const today = todayIn(ZONE);
    const made = await t.db
      .select({ id: permits.id, name: permits.permitName })
      .from(permits)
      .where(eq(permits.companyId, company.id));
    const grading = made.find((p) => p.name === "Grading")!;
    const building = made.find((p) => p.name === "Building")!;
    const conditions = await t.db
      .select()
      .from(permitConditions)
      .where(eq(permitConditions.permitId, grading.id))
      .orderBy(asc(permitConditions.createdAt), asc(permitConditions.title));
    expect(conditions.map((c) => c.title).sort()).toEqual(CONDITIONS.map((c) => c.title).sort());
    const byTitle = new Map(conditions.map((c) => [c.title, c]));
    expect(byTitle.get("Post the permit card")).toMatchObject({
      schedule: "once",
      dueDate: addDays(today, 3),
      evidence: "photo",
      ownerUserId: null,
    });
    expect(byTitle.get("Inspect erosion controls")).toMatchObject({
      startsOn: today,
      everyInterval: 7,
      everyUnit: "days",
      endsOn: null,
    });
    expect(byTitle.get("Notify the inspector")).toMatchObject({
      milestoneName: "Pour",
      milestoneAt: null,
      offsetAmount: 48,
    });
    expect(byTitle.get("Inspect after rain")).toMatchObject({
      eventKind: "Rain ≥ 0.25 in",
      offsetUnit: "hours",
    });
    const tasks = await t.db
      .select({
        conditionId: conditionTasks.conditionId,
        dueOn: conditionTasks.dueOn,
        status: conditionTasks.status,
      })
      .from(conditionTasks)
      .where(eq(conditionTasks.permitId, grading.id));
    const dueOf = (title: string) =>
      tasks.filter((x) => x.conditionId === byTitle.get(title)!.id).map((x) => x.dueOn);
    expect(dueOf("Post the permit card")).toEqual([addDays(today, 3)]);
    expect(dueOf("Inspect erosion controls")).toEqual([today]);
    expect(dueOf("Notify the inspector")).toEqual([]);
    expect(dueOf("Inspect after rain")).toEqual([]);
    expect(tasks.every((x) => x.status === "open")).toBe(true);
    expect(
      await t.db.select().from(permitConditions).where(eq(permitConditions.permitId, building.id)),
    ).toEqual([]);
    const audit = await t.db
      .select({ action: permitAudit.action })
      .from(permitAudit)
      .where(eq(permitAudit.permitId, grading.id));
    expect(audit.filter((a) => a.action === "condition_added")).toHaveLength(4);
    // The list's Tasks Due counts the permit (the 'every' task is due today).
    expect((await admin.get("/api/permits/summary")).json().tasks).toBe(1);
  });
});
