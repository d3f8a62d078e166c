import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { documentRequests } from "../../db/schema.ts";
import { requestHelpers } from "../../test-support/document-requests.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { withinStatementBudget } from "../../test-support/statements.ts";
import { multipart } from "../../test-support/multipart.ts";
import { useWorld } from "../../test-support/world.ts";
import { parseCsv } from "../imports/index.ts";
import { requestSenderIdle } from "./sender-kick.ts";

// The company-wide Requests page (GET /api/requests) and the nav's count of requests awaiting
// review (GET /api/requests/awaiting-count), issue 27: staff only, one company's, one statement.

const t = useTestContext();
const h = requestHelpers(t);
const w = useWorld(t, { permits: true, otherAdmin: true }, async (w) => {
  // Ours: one awaiting review, one open and overdue, one revoked, one expired; theirs: one awaiting review.
  const submitted = await h.ask(w.admin, w.permitId, {
    name: "Paula Party",
    email: "paula@agency.example",
    organization: "County Building Desk",
    dueDate: "2031-03-01",
  });
  await h.answer(submitted.token);
  const overdue = await h.ask(w.admin, w.hiddenPermitId, {
    name: "Otto Overdue",
    email: "otto@surety.example",
    organization: "Northwind Surety",
    dueDate: "2020-01-10",
  });
  const revoked = await h.ask(w.admin, w.permitId, { name: "Rita Revoked", email: "rita@x.example" });
  await w.admin.post(`/api/requests/${revoked.id}/revoke`);
  const expired = await h.ask(w.admin, w.permitId, { name: "Ed Expired", email: "ed@x.example" });
  await t.db
    .update(documentRequests)
    .set({ expiresAt: new Date(Date.now() - 60_000) })
    .where(eq(documentRequests.id, expired.id));
  const foreign = await h.ask(w.otherAdmin, w.foreignPermitId, {
    name: "Frank Foreign",
    email: "frank@elsewhere.example",
  });
  await h.answer(foreign.token, {}, "203.0.113.77");
  // The e-mails sent in the background must be out before statements are counted.
  await requestSenderIdle(t.app);
  return {
    submittedId: submitted.id,
    overdueId: overdue.id,
    revokedId: revoked.id,
    expiredId: expired.id,
    foreignId: foreign.id,
  };
});

type Item = { id: string; state: string; overdue: boolean; partyName: string; companyId: string };
const ids = (res: { json: () => { items: Item[] } }) =>
  res
    .json()
    .items.map((i) => i.id)
    .sort();

describe("GET /api/requests", () => {
  it("requires sign-in; a client-user gets 403 on both routes", async () => {
    expect((await t.anonymous.get("/api/requests")).statusCode).toBe(401);
    expect((await t.anonymous.get("/api/requests/awaiting-count")).statusCode).toBe(401);
    expect((await w.clientUser.get("/api/requests")).statusCode).toBe(403);
    expect((await w.clientUser.get("/api/requests/awaiting-count")).statusCode).toBe(403);
  });

  it("lists the company's requests for each staff role, never another company's", async () => {
    const ours = [w.submittedId, w.overdueId, w.revokedId, w.expiredId].sort();
    for (const api of [w.admin, w.user]) {
      const res = await api.get("/api/requests");
      expect(res.statusCode, res.body).toBe(200);
      expect(ids(res)).toEqual(ours);
      expect(res.json().total).toBe(4);
      expect(res.json().any).toBe(true);
    }
    const theirs = await w.otherAdmin.get("/api/requests");
    expect(ids(theirs)).toEqual([w.foreignId]);
    // A company-admin naming another company still sees its own.
    expect(ids(await w.admin.get(`/api/requests?company_id=${w.otherCompanyId}`))).toEqual(ours);
  });

  it("a super-admin sees every company's, or the one named", async () => {
    const all = await w.superAdmin.get("/api/requests");
    expect(ids(all)).toEqual([w.submittedId, w.overdueId, w.revokedId, w.expiredId, w.foreignId].sort());
    const one = await w.superAdmin.get(`/api/requests?company_id=${w.otherCompanyId}`);
    expect(ids(one)).toEqual([w.foreignId]);
  });

  it("puts requests awaiting review first, and presents each row without the e-mail or the link", async () => {
    const res = await w.admin.get("/api/requests");
    const [first] = res.json().items;
    expect(first).toMatchObject({
      id: w.submittedId,
      state: "submitted",
      stateLabel: "Submitted",
      partyName: "Paula Party",
      partyOrganization: "County Building Desk",
      documentLabel: "Inspection Report",
      itemKind: "permit",
      dueDate: "2031-03-01",
      overdue: false,
    });
    expect(first.submittedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(res.body).not.toContain("paula@agency.example");
    expect(res.body).not.toMatch(/token/i);
  });

  it("filters by state", async () => {
    const state = async (s: string) => ids(await w.admin.get(`/api/requests?state=${s}`));
    expect(await state("awaiting_review")).toEqual([w.submittedId]);
    expect(await state("open")).toEqual([w.overdueId]);
    expect(await state("overdue")).toEqual([w.overdueId]);
    expect(await state("revoked")).toEqual([w.revokedId]);
    expect(await state("expired")).toEqual([w.expiredId]);
    expect(await state("approved")).toEqual([]);
    const overdue = (await w.admin.get("/api/requests?state=overdue")).json().items[0];
    expect(overdue).toMatchObject({ overdue: true, state: "sent" });
  });

  it("filters by party (name, organization or e-mail) and due date", async () => {
    expect(ids(await w.admin.get("/api/requests?party=northwind"))).toEqual([w.overdueId]);
    expect(ids(await w.admin.get("/api/requests?party=PAULA@AGENCY"))).toEqual([w.submittedId]);
    expect(ids(await w.admin.get("/api/requests?party=rita"))).toEqual([w.revokedId]);
    // A wildcard is a character, not a pattern.
    expect(ids(await w.admin.get("/api/requests?party=%25"))).toEqual([]);
    expect(ids(await w.admin.get("/api/requests?due_from=2031-02-01"))).toEqual([w.submittedId]);
    expect(ids(await w.admin.get("/api/requests?due_to=2030-01-01"))).toEqual([w.overdueId]);
    // Another company's party is never found.
    expect(ids(await w.admin.get("/api/requests?party=frank"))).toEqual([]);
  });

  it("tells nothing matches from nothing yet", async () => {
    const none = (await w.admin.get("/api/requests?state=approved")).json();
    expect(none).toMatchObject({ items: [], total: 0, any: true });
    const fresh = await t.signIn(
      await t.make.user({ role: "company-admin", companyId: (await t.make.company()).id }),
    );
    expect((await fresh.get("/api/requests")).json()).toMatchObject({ items: [], total: 0, any: false });
  });

  it("pages on the server; the page and its total in one statement", async () => {
    const res = await withinStatementBudget(t.database, 2, () => w.admin.get("/api/requests?page_size=2"));
    expect(res.json().items).toHaveLength(2);
    expect(res.json().total).toBe(4);
    const second = (await w.admin.get("/api/requests?page_size=2&page=2")).json();
    expect(second.items).toHaveLength(2);
    const past = await withinStatementBudget(t.database, 3, () =>
      w.admin.get("/api/requests?page_size=2&page=9"),
    );
    expect(past.json()).toMatchObject({ items: [], total: 4, any: true });
  });

  it("refuses bad filters with field messages", async () => {
    const res = await w.admin.get("/api/requests?state=pending&due_from=2030-02-30&page=0");
    expect(res.statusCode).toBe(400);
    const bad = await w.admin.get("/api/requests?due_from=2031-01-02&due_to=2031-01-01");
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain("Due to cannot be before Due from");
  });
});

describe("the All Permits list's 'To Review' tile", () => {
  it("counts and lists the permits with a request awaiting review, for staff only", async () => {
    const tile = async (api: typeof w.admin) => {
      const summary = (await api.get("/api/permits/summary?show_non_required=true")).json();
      const list = (await api.get("/api/permits?tile=review&group=none&show_non_required=true")).json();
      return { count: summary.review, ids: list.items.map((p: { id: string }) => p.id).sort() };
    };
    for (const api of [w.admin, w.user]) expect(await tile(api)).toEqual({ count: 1, ids: [w.permitId] });
    // A super-admin: every company's.
    expect(await tile(w.superAdmin)).toEqual({ count: 2, ids: [w.permitId, w.foreignPermitId].sort() });
    // The other company's submitted request is its own.
    expect((await w.otherAdmin.get("/api/permits/summary?show_non_required=true")).json().review).toBe(1);
    // A client-user does not review: no count.
    expect((await w.clientUser.get("/api/permits/summary?show_non_required=true")).json().review).toBe(0);
  });
});

describe("the permit export's request columns", () => {
  it("names the open requests and the last one, never the party's e-mail or the link; the import ignores them", async () => {
    const number = (await w.admin.get(`/api/permits/${w.permitId}`)).json().permit_number as string;
    for (const api of [w.admin, w.clientUser]) {
      const res = await api.get("/api/permits/export?show_non_required=true&show_archived=true");
      expect(res.statusCode, res.body).toBe(200);
      const { header, rows } = parseCsv(res.body.replace(/^\uFEFF/, ""));
      const open = header.indexOf("open_requests");
      const last = header.indexOf("last_request");
      expect(open).toBeGreaterThan(-1);
      const row = rows.find((r) => r.fields.includes(number))!.fields;
      // The permit's requests: submitted (open), revoked, expired; the last one sent is the expired one.
      expect(row[open]).toBe("Inspection Report (Submitted)");
      expect(row[last]).toMatch(/^Inspection Report \(Expired\), sent \d{4}-\d\d-\d\d$/);
      expect(res.body).not.toContain("paula@agency.example");
      expect(res.body).not.toContain("/request/");
    }
    const xlsx = await w.admin.get("/api/permits/export?format=xlsx");
    expect(xlsx.statusCode).toBe(200);
    // The export imports back: the request columns are not the import's.
    const csv = (await w.admin.get("/api/permits/export?show_non_required=true")).body;
    const dry = await w.admin.request({
      method: "POST",
      url: "/api/imports/permits?dry_run=true",
      ...multipart([{ name: "file", filename: "export.csv", contentType: "text/csv", content: csv }]),
    });
    expect(dry.statusCode, dry.body).toBeLessThan(300);
    // (The world's permits have no project: rejected for that, never for the request columns.)
    expect(JSON.stringify(dry.json().rejected)).not.toMatch(/request/i);
  });
});

describe("GET /api/requests/awaiting-count", () => {
  it("counts the company's requests awaiting review in one statement; a super-admin every company's", async () => {
    for (const api of [w.admin, w.user]) {
      const res = await withinStatementBudget(t.database, 2, () => api.get("/api/requests/awaiting-count"));
      expect(res.json()).toEqual({ count: 1 });
    }
    expect((await w.otherAdmin.get("/api/requests/awaiting-count")).json()).toEqual({ count: 1 });
    expect((await w.superAdmin.get("/api/requests/awaiting-count")).json()).toEqual({ count: 2 });
  });

  it("drops when the submission is approved", async () => {
    const submissionId = await h.pendingSubmissionOf(w.admin, w.permitId, w.submittedId);
    const ok = await w.user.post(`/api/requests/${w.submittedId}/approve`, { submissionId });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await w.admin.get("/api/requests/awaiting-count")).json()).toEqual({ count: 0 });
    expect(ids(await w.admin.get("/api/requests?state=approved"))).toEqual([w.submittedId]);
    expect((await w.admin.get("/api/permits/summary?show_non_required=true")).json().review).toBe(0);
  });
});

describe("hostile filters", () => {
  it("answers 400, never 500, to text the database cannot store or a huge search", async () => {
    for (const q of ["party=%00x", `party=${"x".repeat(5000)}`, "state=all&state=open", "page=-1"]) {
      const res = await w.admin.get(`/api/requests?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
    // SQL in the search is text.
    const sqlText = await w.admin.get(`/api/requests?party=${encodeURIComponent("' or 1=1 --")}`);
    expect(sqlText.json().items).toEqual([]);
  });
});
