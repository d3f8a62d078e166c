import { describe, expect, it } from "vitest";
import { requestHelpers } from "../../test-support/document-requests.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { withinStatementBudget } from "../../test-support/statements.ts";
import { useWorld } from "../../test-support/world.ts";
import { requestSenderIdle } from "./sender-kick.ts";

// 'Open Requests' on the project dashboard (issue 27): the open and awaiting-review requests of the
// project's permits and bonds, in the dashboard's one statement; the party's name for staff only.

const t = useTestContext();
const h = requestHelpers(t);
const w = useWorld(t, { otherAdmin: true }, async (w) => {
  const project = await t.make.project({ companyId: w.companyId, clientId: w.seenClientId });
  const permit = await t.make.permit({
    companyId: w.companyId,
    clientId: w.seenClientId,
    projectId: project.id,
  });
  const other = await t.make.permit({
    companyId: w.companyId,
    clientId: w.seenClientId,
    projectId: project.id,
  });
  const open = await h.ask(w.admin, permit.id, {
    name: "Olive Open",
    email: "olive@x.example",
    dueDate: "2020-02-02",
  });
  const submitted = await h.ask(w.admin, other.id, {
    name: "Sid Sent",
    email: "sid@x.example",
    dueDate: "2031-05-05",
  });
  await h.answer(submitted.token);
  const revoked = await h.ask(w.admin, permit.id, { name: "Rex Revoked", email: "rex@x.example" });
  await w.admin.post(`/api/requests/${revoked.id}/revoke`);
  // Outside the project: not listed.
  await h.ask(w.admin, (await t.make.permit({ companyId: w.companyId, clientId: w.seenClientId })).id);
  // The e-mails sent in the background must be out before statements are counted.
  await requestSenderIdle(t.app);
  return { projectId: project.id, openId: open.id, submittedId: submitted.id };
});

describe("the project dashboard's Open Requests", () => {
  it("lists the open and awaiting-review requests, awaiting review first, in the dashboard's statement", async () => {
    for (const api of [w.admin, w.user, w.superAdmin]) {
      const res = await withinStatementBudget(t.database, 2, () =>
        api.get(`/api/projects/${w.projectId}/dashboard`),
      );
      expect(res.statusCode, res.body).toBe(200);
      const list = res.json().open_requests;
      expect(list.map((r: { id: string }) => r.id)).toEqual([w.submittedId, w.openId]);
      expect(list[0]).toMatchObject({ state: "submitted", party_name: "Sid Sent", overdue: false });
      expect(list[1]).toMatchObject({
        state: "sent",
        state_label: "Sent",
        party_name: "Olive Open",
        document_label: "Inspection Report",
        item_kind: "permit",
        due_date: "2020-02-02",
        overdue: true,
      });
    }
  });

  it("shows a client-user what was asked and its state, never the party", async () => {
    const res = await withinStatementBudget(t.database, 2, () =>
      w.clientUser.get(`/api/projects/${w.projectId}/dashboard`),
    );
    const list = res.json().open_requests;
    expect(list).toHaveLength(2);
    expect(list.every((r: { party_name: string | null }) => r.party_name === null)).toBe(true);
    expect(res.body).not.toContain("Sid Sent");
    expect(res.body).not.toContain("@x.example");
  });

  it("another company's admin gets 404", async () => {
    expect((await w.otherAdmin.get(`/api/projects/${w.projectId}/dashboard`)).statusCode).toBe(404);
  });
});
