import { describe, expect, it } from "vitest";
import { addTestTask } from "../../test-support/condition-tasks.ts";
import { useTestContext, type ApiClient } from "../../test-support/harness.ts";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";
import type { PermitList, PermitListItem } from "../../../shared/schemas/permit-list.ts";
import type { PermitSummary } from "../../../shared/schemas/permit-summary.ts";

/**
 * Issue 29: 'Tasks Due' in the All Permits work queue: the tile counts permits with an open task due
 * within 7 days (company-local dates) or overdue; tile=tasks and tasks=due filter the list; each row
 * carries its tasks in brief; client-users see their clients' permits only; tenants apart.
 */
const t = useTestContext({ SIGNIN_IP_LIMIT: "100000", API_RATE_LIMIT: "100000" });

const ZONE = "Pacific/Kiritimati"; // UTC+14: its "today" is often not UTC's
const today = () => todayIn(ZONE);

const rowsOf = (list: PermitList): PermitListItem[] =>
  list.group_by === "none" ? list.items : list.groups.flatMap((g) => g.projects.flatMap((p) => p.permits));
async function namesOf(api: ApiClient, query: string) {
  const res = await api.get(`/api/permits?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return rowsOf(res.json() as PermitList)
    .map((p) => p.permit_name)
    .sort();
}
async function summaryOf(api: ApiClient, query = "") {
  const res = await api.get(`/api/permits/summary${query ? `?${query}` : ""}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as PermitSummary;
}

async function world() {
  const company = await t.make.company({ timeZone: ZONE });
  const other = await t.make.company({ timeZone: ZONE });
  const clientA = await t.make.client(company.id, "Acme");
  const clientB = await t.make.client(company.id, "Beta");
  const projectA = await t.make.project({ companyId: company.id, clientId: clientA.id, name: "Alpha" });
  const projectB = await t.make.project({ companyId: company.id, clientId: clientB.id, name: "Bravo" });
  const task = (
    permitId: string,
    dueOn: string,
    status?: "open" | "done" | "not_applicable",
    companyId = company.id,
  ) => addTestTask(t.db, { companyId, permitId, dueOn, status, timeZone: ZONE });
  const edge = await t.make.permit({ companyId: company.id, projectId: projectA.id, permitName: "due in 7" });
  await task(edge.id, addDays(today(), 7));
  await task(edge.id, addDays(today(), 3));
  const late = await t.make.permit({ companyId: company.id, projectId: projectA.id, permitName: "due in 8" });
  await task(late.id, addDays(today(), 8));
  const overdue = await t.make.permit({
    companyId: company.id,
    projectId: projectA.id,
    permitName: "overdue",
  });
  await task(overdue.id, addDays(today(), -2));
  const done = await t.make.permit({ companyId: company.id, projectId: projectA.id, permitName: "done" });
  await task(done.id, today(), "done");
  await task(done.id, addDays(today(), -1), "not_applicable");
  const beta = await t.make.permit({
    companyId: company.id,
    projectId: projectB.id,
    permitName: "beta today",
  });
  await task(beta.id, today());
  await t.make.permit({ companyId: company.id, projectId: projectA.id, permitName: "no tasks" });
  const foreign = await t.make.permit({ companyId: other.id, permitName: "foreign" });
  await task(foreign.id, today(), "open", other.id);
  return {
    admin: await t.signIn(await t.make.user({ role: "company-admin", companyId: company.id })),
    user: await t.signIn(await t.make.user({ role: "company-user", companyId: company.id })),
    clientUser: await t.signIn(
      await t.make.user({ role: "client-user", companyId: company.id, clientIds: [clientA.id] }),
    ),
    otherAdmin: await t.signIn(await t.make.user({ role: "company-admin", companyId: other.id })),
    projectA,
  };
}

describe("Tasks Due in the All Permits list", () => {
  it("counts permits (not tasks) with an open task due within 7 days or overdue, and filters by tile and by tasks=due", async () => {
    const w = await world();
    expect((await summaryOf(w.admin)).tasks).toBe(3);
    expect((await summaryOf(w.user)).tasks).toBe(3);
    const due = ["beta today", "due in 7", "overdue"];
    expect(await namesOf(w.admin, "tile=tasks")).toEqual(due);
    expect(await namesOf(w.admin, "tasks=due&group=none")).toEqual(due);
    // The filter is one of the summary's filters; the tile is not.
    expect((await summaryOf(w.admin, "tasks=due")).total).toBe(3);
    expect((await summaryOf(w.admin, `project_id=${w.projectA.id}`)).tasks).toBe(2);
    expect((await w.admin.get("/api/permits?tasks=soon")).statusCode).toBe(400);

    const rows = rowsOf((await w.admin.get("/api/permits?group=none")).json() as PermitList);
    const byName = new Map(rows.map((r) => [r.permit_name, r.tasks]));
    expect(byName.get("due in 7")).toEqual({ open: 2, overdue: 0, due: 2, nextDueOn: addDays(today(), 3) });
    expect(byName.get("due in 8")).toEqual({ open: 1, overdue: 0, due: 0, nextDueOn: addDays(today(), 8) });
    expect(byName.get("overdue")).toEqual({ open: 1, overdue: 1, due: 1, nextDueOn: addDays(today(), -2) });
    expect(byName.get("done")).toEqual({ open: 0, overdue: 0, due: 0, nextDueOn: null });
    expect(byName.get("no tasks")).toEqual({ open: 0, overdue: 0, due: 0, nextDueOn: null });
  });

  it("shows a client-user their clients' permits only, and another company nothing of ours", async () => {
    const w = await world();
    expect((await summaryOf(w.clientUser)).tasks).toBe(2);
    expect(await namesOf(w.clientUser, "tile=tasks")).toEqual(["due in 7", "overdue"]);
    expect((await summaryOf(w.otherAdmin)).tasks).toBe(1);
    expect(await namesOf(w.otherAdmin, "tasks=due")).toEqual(["foreign"]);
  });
});
