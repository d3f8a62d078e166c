import { describe, expect, it } from "vitest";
import { addTestTask } from "../../test-support/condition-tasks.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";
import type { ProjectDashboard } from "../../../shared/schemas/projects.ts";

/**
 * Issue 29: the project dashboard's `tasks`: open, overdue and due counts and the open tasks by due
 * (title, permit, due, overdue, owner), of the permits the actor sees; one statement still.
 */
const t = useTestContext({ SIGNIN_IP_LIMIT: "100000", API_RATE_LIMIT: "100000" });
const ZONE = "America/Denver";

describe("the project dashboard's tasks", () => {
  it("counts and lists the open tasks of the project's visible, not archived permits by due", async () => {
    const company = await t.make.company({ timeZone: ZONE });
    const other = await t.make.company();
    const clientA = await t.make.client(company.id, "Acme");
    const clientB = await t.make.client(company.id, "Beta");
    const project = await t.make.project({ companyId: company.id, clientId: clientA.id, name: "Alpha" });
    const owner = await t.make.user({
      role: "company-user",
      companyId: company.id,
      firstName: "Olive",
      lastName: "Owner",
    });
    const today = todayIn(ZONE);
    const p1 = await t.make.permit({
      companyId: company.id,
      projectId: project.id,
      permitNumber: "P-1",
      permitName: "Grading",
    });
    const p2 = await t.make.permit({
      companyId: company.id,
      projectId: project.id,
      permitNumber: "P-2",
      permitName: "Paving",
    });
    const archived = await t.make.permit({ companyId: company.id, projectId: project.id, archived: true });
    const task = (permitId: string, dueOn: string, title: string, status?: "open" | "done") =>
      addTestTask(t.db, {
        companyId: company.id,
        permitId,
        dueOn,
        title,
        status,
        timeZone: ZONE,
        ownerUserId: owner.id,
      });
    const late = await task(p1.id, addDays(today, -1), "Sweep the street");
    const soon = await task(p2.id, addDays(today, 7), "Post the permit card");
    await task(p1.id, addDays(today, 20), "Inspect erosion controls");
    await task(p2.id, today, "Done already", "done");
    await task(archived.id, today, "On an archived permit");

    const admin = await t.signIn(await t.make.user({ role: "company-admin", companyId: company.id }));
    const res = await admin.get(`/api/projects/${project.id}/dashboard`);
    expect(res.statusCode, res.body).toBe(200);
    const { tasks } = res.json() as ProjectDashboard;
    expect([tasks.open, tasks.overdue, tasks.due]).toEqual([3, 1, 2]);
    expect(tasks.items.map((i) => [i.title, i.permit_number, i.due_on, i.overdue])).toEqual([
      ["Sweep the street", "P-1", addDays(today, -1), true],
      ["Post the permit card", "P-2", addDays(today, 7), false],
      ["Inspect erosion controls", "P-1", addDays(today, 20), false],
    ]);
    expect(tasks.items[0]).toMatchObject({
      id: late.task.id,
      condition_id: late.condition.id,
      permit_id: p1.id,
      permit_name: "Grading",
      owner_name: "Olive Owner",
      timed: false,
    });
    expect(tasks.items[1]!.id).toBe(soon.task.id);

    // A client-user of the project's client sees the same; of another client, no project (404).
    const clientUser = await t.signIn(
      await t.make.user({ role: "client-user", companyId: company.id, clientIds: [clientA.id] }),
    );
    const seen = (await clientUser.get(`/api/projects/${project.id}/dashboard`)).json() as ProjectDashboard;
    expect(seen.tasks).toEqual(tasks);
    const otherClientUser = await t.signIn(
      await t.make.user({ role: "client-user", companyId: company.id, clientIds: [clientB.id] }),
    );
    expect((await otherClientUser.get(`/api/projects/${project.id}/dashboard`)).statusCode).toBe(404);
    const otherAdmin = await t.signIn(await t.make.user({ role: "company-admin", companyId: other.id }));
    expect((await otherAdmin.get(`/api/projects/${project.id}/dashboard`)).statusCode).toBe(404);

    const empty = await t.make.project({ companyId: company.id, clientId: clientA.id });
    expect(
      ((await admin.get(`/api/projects/${empty.id}/dashboard`)).json() as ProjectDashboard).tasks,
    ).toEqual({
      open: 0,
      overdue: 0,
      due: 0,
      items: [],
    });
  });
});
