import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { CONDITION_REMOVED_REASON } from "../../../shared/domain/conditions.ts";
import { conditionTasks, permitAudit, permitConditions } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";
import { midnightAfter, next31st, nextFallBack, shortDate } from "../../test-support/relative-dates.ts";

// The Conditions card through the API: schedules in the company's zone (New York), edits and
// removal, roles and tenants, the audit trail.
const t = useTestContext();
const ZONE = "America/New_York";
const w = useWorld(t, { permits: true, otherAdmin: true, company: { timeZone: ZONE } });

// Every date relative to the company's today: a weekly start two weeks out, a 31st ahead, and the
// next fall-back Sunday (clocks back an hour) for the milestones across the change.
const today = todayIn(ZONE);
const start = addDays(today, 14);
const fallBack = nextFallBack(today);
const dayBefore = addDays(fallBack, -1);
const dayAfter = addDays(fallBack, 1);

const weekly = {
  title: "Inspect erosion controls",
  schedule: "every",
  interval: 1,
  unit: "weeks",
  startsOn: start,
  evidence: "none",
};
const tasksOf = (conditionId: string) =>
  t.db.select().from(conditionTasks).where(eq(conditionTasks.conditionId, conditionId));
const auditOf = (permitId: string) =>
  t.db.select().from(permitAudit).where(eq(permitAudit.permitId, permitId));
const newPermit = (extra: Record<string, unknown> = {}) =>
  t.make.permit({ companyId: w.companyId, clientId: w.seenClientId, responsibleUserId: w.userId, ...extra });

describe("POST /api/permits/:id/conditions and the card", () => {
  it("adds a weekly condition whose first task is due at local midnight after its date; the card lists it", async () => {
    const permit = await newPermit();
    const res = await w.user.post(`/api/permits/${permit.id}/conditions`, weekly);
    expect(res.statusCode, res.body).toBe(201);
    const c = res.json();
    expect(c).toMatchObject({
      title: "Inspect erosion controls",
      owner: { id: w.userId, name: "Sam Baker" },
      scheduleText: `Every week from ${shortDate(start)}`,
      closedTaskCount: 0,
    });
    expect(c.tasks).toHaveLength(1);
    expect(c.tasks[0]).toMatchObject({
      occurrence: 0,
      dueOn: start,
      dueAt: midnightAfter(start, ZONE),
      timed: false,
      status: "open",
      overdue: false,
    });
    const card = await w.admin.get(`/api/permits/${permit.id}/conditions`);
    expect(card.statusCode).toBe(200);
    expect(card.json()).toMatchObject({
      timeZone: "America/New_York",
      can: { manage: true, complete: true },
      conditions: [{ id: c.id, tasks: [{ id: c.tasks[0].id }] }],
    });
    expect(card.json().owners.map((o: { name: string }) => o.name)).toEqual(["Ada Admin", "Sam Baker"]);
    expect(card.json().eventKinds[0]).toBe("Rain ≥ 0.25 in");
    const audit = await auditOf(permit.id);
    expect(audit.map((a) => [a.action, a.field, a.newValue, a.userName])).toEqual([
      ["condition_added", "condition", "Inspect erosion controls (Every week)", "Sam Baker"],
      ["task_created", "task", `Inspect erosion controls due ${start}`, "Sam Baker"],
    ]);
  });

  it("monthly on the 31st, once, before-event (48 hours before a local milestone across DST)", async () => {
    const permit = await newPermit();
    const the31st = next31st(today);
    const ends = addDays(the31st, 300);
    const monthly = await w.admin.post(`/api/permits/${permit.id}/conditions`, {
      title: "Monthly report",
      schedule: "every",
      interval: 1,
      unit: "months",
      startsOn: the31st,
      endsOn: ends,
    });
    expect(monthly.statusCode, monthly.body).toBe(201);
    expect(monthly.json().scheduleText).toBe(
      `Every month from ${shortDate(the31st)} until ${shortDate(ends)}`,
    );
    expect(monthly.json().tasks[0]).toMatchObject({ dueOn: the31st, dueAt: midnightAfter(the31st, ZONE) });

    const pour = await w.admin.post(`/api/permits/${permit.id}/conditions`, {
      title: "Notify the inspector",
      schedule: "before_event",
      offsetAmount: 48,
      offsetUnit: "hours",
      milestoneName: "Pour",
      milestoneAt: `${dayAfter}T07:00`,
      ownerUserId: w.adminId,
    });
    expect(pour.statusCode, pour.body).toBe(201);
    expect(pour.json()).toMatchObject({
      milestoneAt: `${dayAfter}T07:00`,
      scheduleText: `48 hours before Pour (${shortDate(dayAfter)}, 7:00 AM)`,
      owner: { id: w.adminId },
    });
    // 07:00 EST on the Monday after the change less 48 hours is 08:00 EDT on the Saturday before it.
    expect(pour.json().tasks[0]).toMatchObject({
      dueAt: `${dayBefore}T12:00:00.000Z`,
      dueOn: dayBefore,
      timed: true,
    });

    const once = await w.admin.post(`/api/permits/${permit.id}/conditions`, {
      title: "Post the permit card",
      schedule: "once",
      dueDate: "2020-01-10",
      evidence: "photo",
    });
    expect(once.json().tasks[0]).toMatchObject({ dueOn: "2020-01-10", overdue: true });

    const after = await w.admin.post(`/api/permits/${permit.id}/conditions`, {
      title: "Inspect after rain",
      schedule: "after_event",
      offsetAmount: 24,
      offsetUnit: "hours",
      eventKind: "  Rain  ≥ 0.25 in ",
    });
    expect(after.json()).toMatchObject({
      eventKind: "Rain ≥ 0.25 in",
      tasks: [],
      scheduleText: "Within 24 hours of Rain ≥ 0.25 in",
    });
  });

  it("moves the milestone's open task when the milestone is edited, and an every's when its interval changes", async () => {
    const permit = await newPermit();
    const pour = (
      await w.admin.post(`/api/permits/${permit.id}/conditions`, {
        title: "Notify",
        schedule: "before_event",
        offsetAmount: 2,
        offsetUnit: "days",
        milestoneName: "Pour",
        milestoneAt: `${dayAfter}T07:00`,
      })
    ).json();
    const [before] = await tasksOf(pour.id);
    const edited = await w.admin.patch(`/api/conditions/${pour.id}`, {
      title: "Notify the inspector",
      schedule: "before_event",
      offsetAmount: 2,
      offsetUnit: "days",
      milestoneName: "Pour",
      milestoneAt: `${addDays(fallBack, 3)}T07:00`,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    // Two local days before 07:00 on the Wednesday: 07:00 EST on the Monday, the same task row.
    expect(edited.json().tasks).toMatchObject([
      { id: before!.id, dueAt: `${dayAfter}T12:00:00.000Z`, dueOn: dayAfter },
    ]);
    const audit = (await auditOf(permit.id)).map((a) => [a.action, a.field, a.oldValue, a.newValue]);
    expect(audit).toContainEqual([
      "condition_edited",
      "condition",
      "Notify (2 days before Pour)",
      "Notify the inspector (2 days before Pour)",
    ]);
    expect(audit).toContainEqual([
      "task_rescheduled",
      "task",
      `Notify due ${dayBefore}`,
      `Notify the inspector due ${dayAfter}`,
    ]);

    const every = (await w.admin.post(`/api/permits/${permit.id}/conditions`, weekly)).json();
    const twice = await w.admin.patch(`/api/conditions/${every.id}`, {
      ...weekly,
      interval: 2,
      startsOn: addDays(start, 7),
    });
    expect(twice.json().tasks).toMatchObject([{ dueOn: addDays(start, 7), occurrence: 0 }]);
    expect(twice.json().scheduleText).toBe(`Every 2 weeks from ${shortDate(addDays(start, 7))}`);
    expect(await tasksOf(every.id)).toHaveLength(1);
  });

  it("removes a condition: kept with removed_at, its open task Not Applicable with the reason, audited", async () => {
    const permit = await newPermit();
    const c = (await w.user.post(`/api/permits/${permit.id}/conditions`, weekly)).json();
    const res = await w.user.delete(`/api/conditions/${c.id}`);
    expect(res.statusCode).toBe(204);
    const [row] = await t.db.select().from(permitConditions).where(eq(permitConditions.id, c.id));
    expect(row!.removedAt).not.toBeNull();
    expect(await tasksOf(c.id)).toMatchObject([
      { status: "not_applicable", reason: CONDITION_REMOVED_REASON },
    ]);
    expect((await w.user.get(`/api/permits/${permit.id}/conditions`)).json().conditions).toEqual([]);
    expect((await w.user.delete(`/api/conditions/${c.id}`)).statusCode).toBe(404);
    const actions = (await auditOf(permit.id)).map((a) => a.action);
    expect(actions.slice(-2)).toEqual(["condition_removed", "task_not_applicable"]);
  });

  it("answers 400 with the missing field and writes nothing", async () => {
    const permit = await newPermit();
    for (const [body, field] of [
      [{ ...weekly, interval: null }, "interval"],
      [{ ...weekly, startsOn: "" }, "startsOn"],
      [{ title: "x", schedule: "once" }, "dueDate"],
      [{ title: "x", schedule: "after_event", offsetAmount: 1, offsetUnit: "hours" }, "eventKind"],
      [
        {
          title: "x",
          schedule: "before_event",
          offsetAmount: 1,
          offsetUnit: "hours",
          milestoneName: "Pour",
          milestoneAt: "tomorrow",
        },
        "milestoneAt",
      ],
      [{ ...weekly, title: "" }, "title"],
      [{ ...weekly, endsOn: addDays(start, -1) }, "endsOn"],
      [{ ...weekly, ownerUserId: w.clientUserId }, "ownerUserId"],
    ] as const) {
      const res = await w.admin.post(`/api/permits/${permit.id}/conditions`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields[field], JSON.stringify(res.json())).toBeTruthy();
    }
    expect(
      await t.db.select().from(permitConditions).where(eq(permitConditions.permitId, permit.id)),
    ).toEqual([]);
    expect(await auditOf(permit.id)).toEqual([]);
  });

  it("refuses changes on a closed or archived permit (409)", async () => {
    const closed = await newPermit({ closeDate: "2026-01-01" });
    const res = await w.admin.post(`/api/permits/${closed.id}/conditions`, weekly);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/closed or archived/);
    const archived = await newPermit({ archived: true });
    expect((await w.admin.post(`/api/permits/${archived.id}/conditions`, weekly)).statusCode).toBe(409);
  });
});

describe("roles and tenants", () => {
  it("a client-user reads the card without owners or manage rights and cannot write (403)", async () => {
    const c = (await w.admin.post(`/api/permits/${w.permitId}/conditions`, weekly)).json();
    const card = await w.clientUser.get(`/api/permits/${w.permitId}/conditions`);
    expect(card.statusCode).toBe(200);
    expect(card.json()).toMatchObject({ can: { manage: false, complete: false }, owners: [] });
    expect(card.json().conditions.map((x: { id: string }) => x.id)).toContain(c.id);
    expect((await w.clientUser.post(`/api/permits/${w.permitId}/conditions`, weekly)).statusCode).toBe(403);
    expect((await w.clientUser.patch(`/api/conditions/${c.id}`, weekly)).statusCode).toBe(403);
    expect((await w.clientUser.delete(`/api/conditions/${c.id}`)).statusCode).toBe(403);
  });

  it("another company's permit or condition, and a client-user's hidden permit, are 404", async () => {
    const foreign = (await w.otherAdmin.post(`/api/permits/${w.foreignPermitId}/conditions`, weekly)).json();
    expect(foreign.id).toBeTruthy();
    expect((await w.admin.get(`/api/permits/${w.foreignPermitId}/conditions`)).statusCode).toBe(404);
    expect((await w.admin.post(`/api/permits/${w.foreignPermitId}/conditions`, weekly)).statusCode).toBe(404);
    expect((await w.admin.patch(`/api/conditions/${foreign.id}`, weekly)).statusCode).toBe(404);
    expect((await w.user.delete(`/api/conditions/${foreign.id}`)).statusCode).toBe(404);
    expect((await w.clientUser.get(`/api/permits/${w.hiddenPermitId}/conditions`)).statusCode).toBe(404);
    expect((await w.otherAdmin.post(`/api/permits/${w.permitId}/conditions`, weekly)).statusCode).toBe(404);
    // A staff user of another company cannot be an owner.
    const res = await w.otherAdmin.post(`/api/permits/${w.foreignPermitId}/conditions`, {
      ...weekly,
      ownerUserId: w.userId,
    });
    expect(res.statusCode).toBe(400);
  });

  it("a super-admin manages any company's conditions", async () => {
    const res = await w.superAdmin.post(`/api/permits/${w.foreignPermitId}/conditions`, {
      ...weekly,
      title: "By the super-admin",
    });
    expect(res.statusCode, res.body).toBe(201);
    const card = await w.superAdmin.get(`/api/permits/${w.foreignPermitId}/conditions`);
    expect(card.json().can).toEqual({ manage: true, complete: true });
    expect(card.json().timeZone).toBe("UTC");
  });
});
