import { beforeAll, describe, expect, it } from "vitest";
import { requestHelpers } from "../../test-support/document-requests.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { webhookHelpers } from "../../test-support/webhook-events.ts";
import { useWorld } from "../../test-support/world.ts";

/*
 * Issue 30, item 3: a document request's events, through the real API: the party's submit through
 * the link (request.submitted), staff's rejection and approval. The data names the request (id,
 * status, document, due date), never its link, token or anyone's e-mail address.
 */

const t = useTestContext();
const w = useWorld(t, { permits: true });
const h = webhookHelpers(t);
const r = requestHelpers(t);
let ours: string;

beforeAll(async () => {
  ours = (await h.endpoint(w.companyId)).id;
  await h.endpoint(w.otherCompanyId);
});

describe("document request events", () => {
  it("submitted, rejected, submitted again and approved, each with the request as it then was", async () => {
    const { id, token } = await r.ask(w.admin, w.permitId, { dueDate: "2031-01-15" });
    expect(await h.eventsAbout(w.permitId)).toHaveLength(0); // asking is no event of the catalogue

    await r.answer(token);
    const submitted = await h.theEvent(w.permitId, "request.submitted", ours);
    expect(submitted.data).toEqual({
      permit: expect.objectContaining({ id: w.permitId }),
      request: { id, status: "submitted", document: "Inspection Report", due_date: "2031-01-15" },
    });

    const first = await r.pendingSubmissionOf(w.admin, w.permitId, id);
    const rejected = await w.admin.post(`/api/requests/${id}/reject`, {
      submissionId: first,
      reason: "Unsigned.",
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const rejection = await h.theEvent(w.permitId, "request.rejected", ours);
    expect(rejection.data.request).toMatchObject({ id, status: "open" });

    await r.answer(token);
    expect(await h.eventsAbout(w.permitId, "request.submitted")).toHaveLength(2);
    const second = await r.pendingSubmissionOf(w.admin, w.permitId, id);
    const approved = await w.user.post(`/api/requests/${id}/approve`, { submissionId: second });
    expect(approved.statusCode, approved.body).toBe(200);
    const approval = await h.theEvent(w.permitId, "request.approved", ours);
    expect(approval.data.request).toMatchObject({ id, status: "approved" });

    // Nothing of the link or the party's address in any of them.
    const text = JSON.stringify(await h.eventsAbout(w.permitId));
    expect(text).not.toContain(token);
    expect(text).not.toContain("@");
    expect(text).not.toMatch(/request-links|token/i);
    await h.nothingFor(w.otherCompanyId);
  });
});
