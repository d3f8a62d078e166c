import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { conditionTasks, permitAudit } from "../../db/schema.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { multipart, type MultipartPart } from "../../test-support/multipart.ts";
import type { ApiClient } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";
import { nextFallBack, nextJanuary31st } from "../../test-support/relative-dates.ts";

// Tasks through the API: Complete with a note and evidence (the next 'every' task made), Not
// Applicable, the evidence's checked download, Log Event on a project; roles and tenants.
const t = useTestContext();
const ZONE = "America/New_York";
const w = useWorld(t, { permits: true, otherAdmin: true, company: { timeZone: ZONE } });

// Every date relative to the company's today. The weekly tasks start on the Tuesday twelve days
// before the next fall-back Sunday (clocks back an hour), so the third falls after the change.
const today = todayIn(ZONE);
const fallBack = nextFallBack(today, 14);
const start = addDays(fallBack, -12);
const dayBefore = addDays(fallBack, -1);
const dayAfter = addDays(fallBack, 1);

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from("photo bytes")]);
const weekly = (extra: Record<string, unknown> = {}) => ({
  title: "Inspect erosion controls",
  schedule: "every",
  interval: 1,
  unit: "weeks",
  startsOn: start,
  ...extra,
});
const complete = (client: ApiClient, taskId: string, parts: MultipartPart[]) =>
  client.request({ method: "POST", url: `/api/tasks/${taskId}/complete`, ...multipart(parts) });
const newPermit = (extra: Record<string, unknown> = {}) =>
  t.make.permit({ companyId: w.companyId, clientId: w.seenClientId, responsibleUserId: w.userId, ...extra });
async function addCondition(permitId: string, body: Record<string, unknown>) {
  const res = await w.admin.post(`/api/permits/${permitId}/conditions`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
const taskRow = async (id: string) =>
  (await t.db.select().from(conditionTasks).where(eq(conditionTasks.id, id)))[0]!;
const auditOf = (permitId: string) =>
  t.db.select().from(permitAudit).where(eq(permitAudit.permitId, permitId));

describe("POST /api/tasks/:id/complete", () => {
  it("completes a weekly task with a photo and a note; the next one is a calendar week later across DST", async () => {
    const permit = await newPermit();
    const c = await addCondition(permit.id, weekly({ evidence: "photo" }));
    const first = c.tasks[0];
    const res = await complete(w.user, first.id, [
      { name: "note", content: "Silt fence repaired" },
      { name: "file", filename: "IMG_0001.jpg", contentType: "image/jpeg", content: JPEG },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.task).toMatchObject({
      status: "done",
      completedByName: "Sam Baker",
      note: "Silt fence repaired",
      evidence: { name: "IMG_0001.jpg", contentType: "image/jpeg", size: JPEG.length },
    });
    expect(body.next).toMatchObject({
      occurrence: 1,
      dueOn: addDays(start, 7),
      dueAt: `${addDays(start, 8)}T04:00:00.000Z`,
    });
    const row = await taskRow(first.id);
    expect(row.evidenceKey).toMatch(new RegExp(`^(s3:)?companies/${w.companyId}/evidence/[0-9a-f-]{36}$`));
    expect(row.evidenceSha256).toMatch(/^[0-9a-f]{64}$/);

    // The second: no evidence is 400 and nothing changes.
    const missing = await complete(w.user, body.next.id, [{ name: "note", content: "forgot" }]);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe("Evidence is required: attach a photo");
    expect((await taskRow(body.next.id)).status).toBe("open");
    // A text file called .jpg is no photo.
    const fake = await complete(w.user, body.next.id, [
      { name: "file", filename: "fake.jpg", contentType: "image/jpeg", content: "not an image" },
    ]);
    expect(fake.statusCode).toBe(400);
    expect(fake.json().fields.file).toMatch(/must be a photo/);
    expect((await taskRow(body.next.id)).status).toBe("open");
    const again = await complete(w.user, body.next.id, [
      {
        name: "file",
        filename: "b.png",
        contentType: "application/octet-stream",
        content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2]),
      },
    ]);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().task.evidence.contentType).toBe("image/png");
    // Across the change from EDT to EST: local midnight after the third Tuesday is 05:00 UTC.
    expect(again.json().next).toMatchObject({
      occurrence: 2,
      dueOn: addDays(start, 14),
      dueAt: `${addDays(start, 15)}T05:00:00.000Z`,
    });

    // Completing twice is 409.
    expect((await complete(w.user, first.id, [{ name: "note", content: "x" }])).statusCode).toBe(409);

    const audit = (await auditOf(permit.id)).map((a) => [a.action, a.field, a.newValue, a.internal]);
    expect(audit).toContainEqual(["task_completed", "task", `Inspect erosion controls due ${start}`, false]);
    expect(audit).toContainEqual(["task_completed", "note", "Silt fence repaired", true]);
    expect(audit).toContainEqual(["task_completed", "evidence", "IMG_0001.jpg", true]);
    expect(audit).toContainEqual([
      "task_created",
      "task",
      `Inspect erosion controls due ${addDays(start, 7)}`,
      false,
    ]);

    // The evidence downloads, checked; a client-user sees the task without note or evidence.
    const dl = await w.admin.get(`/api/tasks/${first.id}/evidence`);
    expect(dl.statusCode).toBe(200);
    expect(dl.rawPayload.equals(JPEG)).toBe(true);
    expect(dl.headers["content-disposition"]).toContain("IMG_0001.jpg");
    const card = (await w.clientUser.get(`/api/permits/${permit.id}/conditions`)).json();
    const seen = card.conditions[0].tasks.find((x: { id: string }) => x.id === first.id);
    expect(seen).toMatchObject({ status: "done", completedByName: "Sam Baker", note: null, evidence: null });
    expect((await w.clientUser.get(`/api/tasks/${first.id}/evidence`)).statusCode).toBe(403);
    expect((await w.otherAdmin.get(`/api/tasks/${first.id}/evidence`)).statusCode).toBe(404);
    // A client-user never reads the staff-only audit entries (note, evidence).
    const trail = (await w.clientUser.get(`/api/permits/${permit.id}/audit`)).json();
    expect(JSON.stringify(trail)).not.toContain("Silt fence repaired");
  });

  it("monthly on the 31st: the next tasks fall on Feb 28 and Mar 31", async () => {
    const permit = await newPermit();
    // The next January 31st (Feb 29 in a leap year); March 31st is after the spring change.
    const jan31 = nextJanuary31st(today);
    const year = jan31.slice(0, 4);
    const c = await addCondition(permit.id, weekly({ title: "Report", unit: "months", startsOn: jan31 }));
    const feb = (await complete(w.admin, c.tasks[0].id, [])).json().next;
    expect(feb).toMatchObject({ dueOn: addDays(`${year}-03-01`, -1), dueAt: `${year}-03-01T05:00:00.000Z` });
    const mar = (await complete(w.admin, feb.id, [])).json().next;
    expect(mar).toMatchObject({ dueOn: `${year}-03-31`, dueAt: `${year}-04-01T04:00:00.000Z` });
  });

  it("a file evidence takes any file; a once task makes no next one; ends_on stops an every", async () => {
    const permit = await newPermit();
    const c = await addCondition(permit.id, {
      title: "Submit plan",
      schedule: "once",
      dueDate: addDays(today, 5),
      evidence: "file",
    });
    const none = await complete(w.admin, c.tasks[0].id, []);
    expect(none.json().message).toBe("Evidence is required: attach a file");
    const ok = await complete(w.admin, c.tasks[0].id, [
      { name: "file", filename: "plan.pdf", contentType: "application/pdf", content: "%PDF-1.4" },
    ]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().next).toBeNull();
    const ending = await addCondition(permit.id, weekly({ startsOn: start, endsOn: addDays(start, 6) }));
    expect((await complete(w.admin, ending.tasks[0].id, [])).json().next).toBeNull();
  });
});

describe("POST /api/tasks/:id/not-applicable", () => {
  it("needs a reason; makes the next 'every' task; refused on a closed permit (409)", async () => {
    const permit = await newPermit();
    const c = await addCondition(permit.id, weekly());
    const id = c.tasks[0].id;
    const empty = await w.user.post(`/api/tasks/${id}/not-applicable`, { reason: "  " });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields.reason).toBeTruthy();
    expect((await taskRow(id)).status).toBe("open");
    const res = await w.user.post(`/api/tasks/${id}/not-applicable`, { reason: "No work this week" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().task).toMatchObject({ status: "not_applicable", reason: "No work this week" });
    expect(res.json().next).toMatchObject({ occurrence: 1, dueOn: addDays(start, 7) });
    const last = (await auditOf(permit.id)).map((a) => [a.action, a.oldValue, a.newValue]);
    expect(last).toContainEqual([
      "task_not_applicable",
      `Inspect erosion controls due ${start}`,
      "No work this week",
    ]);

    await t.db.execute(sql.raw(`update permits set close_date = '${today}' where id = '${permit.id}'`));
    const closed = await w.user.post(`/api/tasks/${res.json().next.id}/not-applicable`, { reason: "x" });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().message).toMatch(/closed or archived/);
    expect((await complete(w.user, res.json().next.id, [])).statusCode).toBe(409);
  });

  it("roles and tenants: client-user 403, another company's task 404, super-admin allowed", async () => {
    const permit = await newPermit();
    const c = await addCondition(permit.id, weekly());
    const id = c.tasks[0].id;
    expect((await w.clientUser.post(`/api/tasks/${id}/not-applicable`, { reason: "x" })).statusCode).toBe(
      403,
    );
    expect((await complete(w.clientUser, id, [])).statusCode).toBe(403);
    expect((await w.otherAdmin.post(`/api/tasks/${id}/not-applicable`, { reason: "x" })).statusCode).toBe(
      404,
    );
    expect((await complete(w.otherAdmin, id, [])).statusCode).toBe(404);
    expect((await taskRow(id)).status).toBe("open");
    expect(
      (await w.superAdmin.post(`/api/tasks/${id}/not-applicable`, { reason: "Done elsewhere" })).statusCode,
    ).toBe(200);
  });
});

describe("POST /api/projects/:id/events", () => {
  it("makes tasks on the project's open permits for conditions of that kind, in the company's zone", async () => {
    const project = await t.make.project({ companyId: w.companyId, clientId: w.seenClientId });
    const open = await newPermit({ projectId: project.id, permitNumber: "P-OPEN" });
    const closed = await newPermit({ projectId: project.id, closeDate: "2026-01-01" });
    const archived = await newPermit({ projectId: project.id, archived: true });
    const elsewhere = await newPermit();
    const rain = {
      title: "Inspect after rain",
      schedule: "after_event",
      offsetAmount: 24,
      offsetUnit: "hours",
      eventKind: "Rain ≥ 0.25 in",
    };
    const onOpen = await addCondition(open.id, rain);
    const days = await addCondition(open.id, {
      ...rain,
      title: "Report the rain",
      offsetAmount: 1,
      offsetUnit: "days",
    });
    await addCondition(open.id, { ...rain, title: "Wind check", eventKind: "High wind" });
    await addCondition(elsewhere.id, rain);
    // Conditions added before the permits were closed or archived.
    for (const p of [closed, archived]) {
      await t.db.execute(
        `update permits set close_date = null, archived = false where id = '${p.id}'` as never,
      );
      await addCondition(p.id, rain);
    }
    await t.db.execute(sql.raw(`update permits set close_date = '2026-01-01' where id = '${closed.id}'`));
    await t.db.execute(sql.raw(`update permits set archived = true where id = '${archived.id}'`));

    const res = await w.user.post(`/api/projects/${project.id}/events`, {
      kind: " rain   ≥ 0.25 IN",
      occurredAt: `${dayBefore}T22:00`,
      note: "0.4 in overnight",
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      event: {
        kind: "rain ≥ 0.25 IN",
        occurredAt: `${fallBack}T02:00:00.000Z`,
        note: "0.4 in overnight",
        createdByName: "Sam Baker",
      },
      tasksCreated: 2,
      permits: [{ id: open.id, permitNumber: "P-OPEN" }],
    });
    // 22:00 EDT on the Saturday + 24 hours = 21:00 EST on the Sunday; + 1 local day = 22:00 EST on it.
    const [hours] = await t.db.select().from(conditionTasks).where(eq(conditionTasks.conditionId, onOpen.id));
    expect(hours).toMatchObject({ dueOn: fallBack, timed: true, status: "open", occurrence: null });
    expect(hours!.dueAt.toISOString()).toBe(`${dayAfter}T02:00:00.000Z`);
    const [day] = await t.db.select().from(conditionTasks).where(eq(conditionTasks.conditionId, days.id));
    expect(day!.dueAt.toISOString()).toBe(`${dayAfter}T03:00:00.000Z`);
    for (const p of [closed, archived, elsewhere])
      expect(await t.db.select().from(conditionTasks).where(eq(conditionTasks.permitId, p.id))).toEqual([]);
    const card = (await w.user.get(`/api/permits/${open.id}/conditions`)).json();
    const task = card.conditions.find((c: { id: string }) => c.id === onOpen.id).tasks[0];
    expect(task.event).toMatchObject({ kind: "rain ≥ 0.25 IN", occurredAt: `${fallBack}T02:00:00.000Z` });
    const audit = (await auditOf(open.id)).map((a) => [a.action, a.newValue]);
    expect(audit).toContainEqual(["event_logged", `rain ≥ 0.25 IN (${dayBefore} 22:00)`]);
    expect(audit).toContainEqual(["task_created", `Inspect after rain due ${fallBack}`]);

    const list = await w.clientUser.get(`/api/projects/${project.id}/events`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ can: { log: false }, events: [{ kind: "rain ≥ 0.25 IN" }] });
    expect(list.json().eventKinds.filter((k: string) => k.toLowerCase() === "rain ≥ 0.25 in")).toHaveLength(
      1,
    );
  });

  it("roles and tenants: client-user 403, another company's project 404, bad input 400", async () => {
    const project = await t.make.project({ companyId: w.companyId, clientId: w.seenClientId });
    const body = { kind: "High wind", occurredAt: `${today}T10:00` };
    expect((await w.clientUser.post(`/api/projects/${project.id}/events`, body)).statusCode).toBe(403);
    expect((await w.otherAdmin.post(`/api/projects/${project.id}/events`, body)).statusCode).toBe(404);
    expect((await w.otherAdmin.get(`/api/projects/${project.id}/events`)).statusCode).toBe(404);
    const bad = await w.admin.post(`/api/projects/${project.id}/events`, {
      kind: "",
      occurredAt: "yesterday",
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(["kind", "occurredAt"]);
    expect((await w.admin.get(`/api/projects/${project.id}/events`)).json().events).toEqual([]);
  });
});
