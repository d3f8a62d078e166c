import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  attachments,
  bondLedgerEntries,
  documentRequests,
  permitAudit,
  permits,
  permitTerms,
  requestDeliveries,
  requestFiles,
} from "../../db/schema.ts";
import { requestHelpers } from "../../test-support/document-requests.ts";
import { createTestContext, type ApiClient, type TestContext } from "../../test-support/harness.ts";
import { startTestSmtp, type TestSmtp } from "../../test-support/test-smtp.ts";
import { buildWorld, type World } from "../../test-support/world.ts";
import { sendDueRequestDeliveries } from "./request-deliveries.ts";
import { requestSenderIdle } from "./sender-kick.ts";

// Reviewing a document request (issue 27): approval applied through the existing paths in one
// transaction, two reviewers at once, rejection and revocation, and the party's e-mails through
// the real mailer and a real SMTP server on 127.0.0.1.

const PUBLIC_URL = "https://permits.example.com";
let smtp: TestSmtp;
const t = {} as TestContext;
let w: World;
let projectId: string;
const h = requestHelpers(t);

beforeAll(async () => {
  smtp = await startTestSmtp();
  Object.assign(t, await createTestContext({ SMTP_URL: smtp.url, PUBLIC_URL }));
  w = await buildWorld(t, { permits: true });
  projectId = (await t.make.project({ companyId: w.companyId, clientId: w.seenClientId })).id;
});
afterAll(async () => {
  await t.close?.();
  await smtp?.close();
});
afterEach(() => {
  smtp.failAll(false);
});

const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email));
const send = () =>
  sendDueRequestDeliveries(t.db, t.app.ctx.mailer, { publicUrl: PUBLIC_URL, links: t.app.ctx.links });
const viewOf = async (client: ApiClient, permitId: string, id: string) =>
  (await client.get(`/api/permits/${permitId}/requests`))
    .json()
    .items.find((i: { id: string }) => i.id === id);

let n = 0;
async function newPermit(over: Record<string, unknown> = {}) {
  n++;
  const res = await w.admin.post("/api/permits", {
    permit_number: `R-${n}`,
    permit_name: `Review Permit ${n}`,
    record_type: "permit",
    agency: "City of Springfield",
    issue_date: "2026-01-05",
    expiration_date: "2030-06-30",
    project_id: projectId,
    ...over,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}
const newBond = () =>
  newPermit({
    record_type: "bond",
    bond_amount: "100000",
    surety_company: "Acme Surety",
    guarantee_type: "Performance",
  });

describe("approving applies the document through the existing paths", () => {
  it("a renewed permit becomes one new term, even when two reviewers approve at once", async () => {
    const permit = await newPermit();
    const { id, token } = await h.ask(w.admin, permit.id, {
      documentKind: "renewed_permit",
      fields: ["new_expiration_date", "new_permit_number"],
    });
    await h.answer(token, { new_expiration_date: "2032-06-30", new_permit_number: "R-RENEWED" });
    const submissionId = await h.pendingSubmissionOf(w.admin, permit.id, id);
    expect((await w.clientUser.post(`/api/requests/${id}/approve`, { submissionId })).statusCode).toBe(403);
    const [a, b] = await Promise.all([
      w.admin.post(`/api/requests/${id}/approve`, { submissionId }),
      w.user.post(`/api/requests/${id}/approve`, { submissionId }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const approved = (a.statusCode === 200 ? a : b).json().request;
    expect(approved).toMatchObject({ status: "approved", state: "approved", stateLabel: "Approved" });
    expect(approved.submissions[0].status).toBe("approved");
    const terms = await t.db.select().from(permitTerms).where(eq(permitTerms.permitId, permit.id));
    expect(terms.filter((x) => x.kind === "renewal")).toHaveLength(1);
    const [row] = await t.db.select().from(permits).where(eq(permits.id, permit.id));
    expect(row).toMatchObject({ expirationDate: "2032-06-30", permitNumber: "R-RENEWED", termNo: 2 });
    const files = await t.db.select().from(attachments).where(eq(attachments.permitId, permit.id));
    expect(files.map((f) => [f.filename, f.kind, f.archived])).toEqual([["report.pdf", "file", false]]);
    const [rf] = await t.db.select().from(requestFiles).where(eq(requestFiles.requestId, id));
    expect(rf!.attachmentId).toBe(files[0]!.id);
    expect(files[0]!.storageKey).toBe(rf!.storageKey);
    // The attachment downloads like any other.
    const dl = await w.user.get(`/api/attachments/${files[0]!.id}/download`);
    expect(dl.statusCode).toBe(200);
    // The trail: staff steps as staff, the party's as the party.
    const trail = await t.db.select().from(permitAudit).where(eq(permitAudit.permitId, permit.id));
    const by = (action: string) =>
      trail.filter((e) => e.action === action).map((e) => [e.userName, e.userId]);
    expect(by("request_sent")[0]).toEqual(["Ada Admin", w.adminId]);
    expect(by("request_submitted")[0]).toEqual(["Jane Roe (Acme Surety) via request link", null]);
    expect(by("request_file_uploaded")[0]).toEqual(["Jane Roe (Acme Surety) via request link", null]);
    expect(by("request_approved")).toHaveLength(1);
    expect(trail.some((e) => e.action === "renew" && e.field === "expiration_date")).toBe(true);
    // The link now shows its completed state and takes nothing more.
    const page = await h.party().page(token);
    expect(page.statusCode).toBe(200);
    expect(page.json().state).toBe("approved");
    expect((await h.party().upload(token)).statusCode).toBe(409);
    expect((await h.party().submit(token)).statusCode).toBe(409);
  });

  it("an approval that the lifecycle refuses changes nothing (one transaction)", async () => {
    const permit = await newPermit();
    const { id, token } = await h.ask(w.admin, permit.id, {
      documentKind: "renewed_permit",
      fields: ["new_expiration_date"],
    });
    // Not later than the current expiration: the renew flow refuses it.
    await h.answer(token, { new_expiration_date: "2029-01-01" });
    const submissionId = await h.pendingSubmissionOf(w.admin, permit.id, id);
    const res = await w.admin.post(`/api/requests/${id}/approve`, { submissionId });
    expect(res.statusCode).toBe(400);
    const [req] = await t.db.select().from(documentRequests).where(eq(documentRequests.id, id));
    expect(req!.status).toBe("submitted");
    expect(await t.db.select().from(attachments).where(eq(attachments.permitId, permit.id))).toEqual([]);
    const approvedEntries = await t.db
      .select()
      .from(permitAudit)
      .where(and(eq(permitAudit.permitId, permit.id), eq(permitAudit.action, "request_approved")));
    expect(approvedEntries).toEqual([]);
  });

  it("a rider becomes one ledger entry with its document, a release letter a release", async () => {
    const bond = await newBond();
    const rider = await h.ask(w.admin, bond.id, {
      documentKind: "bond_rider",
      fields: ["amount", "effective_date"],
    });
    await h.answer(rider.token, { amount: "25,000", effective_date: "2026-08-01" });
    const submissionId = await h.pendingSubmissionOf(w.admin, bond.id, rider.id);
    const [a, b] = await Promise.all([
      w.admin.post(`/api/requests/${rider.id}/approve`, { submissionId }),
      w.user.post(`/api/requests/${rider.id}/approve`, { submissionId }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const entries = await t.db
      .select()
      .from(bondLedgerEntries)
      .where(eq(bondLedgerEntries.permitId, bond.id));
    const riders = entries.filter((e) => e.kind === "rider");
    expect(riders).toHaveLength(1);
    expect(riders[0]).toMatchObject({ change: "25000.00", effectiveDate: "2026-08-01" });
    const [doc] = await t.db.select().from(attachments).where(eq(attachments.id, riders[0]!.documentId!));
    expect(doc).toMatchObject({ kind: "ledger_document", permitId: bond.id, filename: "report.pdf" });
    const [row] = await t.db.select().from(permits).where(eq(permits.id, bond.id));
    expect(row!.currentAmount).toBe("125000.00");

    const release = await h.ask(w.admin, bond.id, { documentKind: "release_letter" });
    await h.answer(release.token);
    const sid = await h.pendingSubmissionOf(w.admin, bond.id, release.id);
    const res = await w.admin.post(`/api/requests/${release.id}/approve`, { submissionId: sid });
    expect(res.statusCode, res.body).toBe(200);
    const [closed] = await t.db.select().from(permits).where(eq(permits.id, bond.id));
    expect(closed).toMatchObject({ bondStatus: "released", currentAmount: "0.00" });
    expect(closed!.closeDate).not.toBeNull();
  });

  it("approving needs the submission awaiting review", async () => {
    const permit = await newPermit();
    const { id } = await h.ask(w.admin, permit.id);
    const res = await w.admin.post(`/api/requests/${id}/approve`, { submissionId: t.make.uuid() });
    expect(res.statusCode).toBe(409);
  });
});

describe("the party's e-mails (request_deliveries, exactly once)", () => {
  it("e-mails the link right after the request is saved, once; the token is in the mail and nowhere in the database", async () => {
    const permit = await newPermit();
    const email = "mail.one@acme-surety.example";
    const { id, token } = await h.ask(w.admin, permit.id, { email, message: "Need <b>it</b> soon" });
    await requestSenderIdle(t.app);
    const mails = mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain("Acme Builders requests a document: Inspection Report");
    expect(mails[0]!.decoded).toContain(`${PUBLIC_URL}/request/${token}`);
    expect(mails[0]!.decoded).toContain("Need &lt;b&gt;it&lt;/b&gt; soon");
    await send();
    expect(mailsTo(email)).toHaveLength(1);
    const [delivery] = await t.db.select().from(requestDeliveries).where(eq(requestDeliveries.requestId, id));
    expect(delivery).toMatchObject({ kind: "request", status: "sent", attempts: 1 });
  });

  it("keeps the e-mail while SMTP is down and sends it once on a later run", async () => {
    const permit = await newPermit();
    const email = "mail.two@acme-surety.example";
    smtp.failAll(true);
    const { id } = await h.ask(w.admin, permit.id, { email });
    await requestSenderIdle(t.app);
    const [pending] = await t.db.select().from(requestDeliveries).where(eq(requestDeliveries.requestId, id));
    expect(pending).toMatchObject({ status: "pending", attempts: 1 });
    expect(pending!.lastError).toBeTruthy();
    smtp.failAll(false);
    // Due again after the backoff: make it due now, as time passing would.
    await t.db
      .update(requestDeliveries)
      .set({ nextAttemptAt: new Date() })
      .where(eq(requestDeliveries.id, pending!.id));
    await Promise.all([send(), send()]);
    await send();
    expect(mailsTo(email)).toHaveLength(1);
  });

  it("a rejection e-mails the reason with the same link, and the party can answer again", async () => {
    const permit = await newPermit();
    const email = "mail.three@acme-surety.example";
    const { id, token } = await h.ask(w.admin, permit.id, { email });
    await h.answer(token);
    const submissionId = await h.pendingSubmissionOf(w.admin, permit.id, id);
    expect((await w.admin.post(`/api/requests/${id}/reject`, { submissionId, reason: "" })).statusCode).toBe(
      400,
    );
    const res = await w.user.post(`/api/requests/${id}/reject`, {
      submissionId,
      reason: "The report is unsigned.",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().request).toMatchObject({
      status: "open",
      state: "rejected",
      rejectReason: "The report is unsigned.",
    });
    await requestSenderIdle(t.app);
    const mails = mailsTo(email);
    expect(mails).toHaveLength(2);
    const rejection = mails.find((m) => m.subject.includes("could not accept"))!;
    expect(rejection.decoded).toContain("The report is unsigned.");
    expect(rejection.decoded).toContain(`${PUBLIC_URL}/request/${token}`);
    const page = (await h.party().page(token)).json();
    expect(page).toMatchObject({ state: "open", files: [] });
    expect(page.request.rejectReason).toBe("The report is unsigned.");
    await h.answer(token);
    expect((await viewOf(w.admin, permit.id, id)).state).toBe("submitted");
  });

  it("revoking cancels an e-mail not sent yet", async () => {
    const permit = await newPermit();
    const email = "mail.four@acme-surety.example";
    smtp.failAll(true);
    const { id } = await h.ask(w.admin, permit.id, { email });
    await requestSenderIdle(t.app);
    smtp.failAll(false);
    expect((await w.admin.post(`/api/requests/${id}/revoke`)).statusCode).toBe(200);
    await t.db
      .update(requestDeliveries)
      .set({ nextAttemptAt: new Date() })
      .where(eq(requestDeliveries.requestId, id));
    await send();
    expect(mailsTo(email)).toHaveLength(0);
    const [d] = await t.db.select().from(requestDeliveries).where(eq(requestDeliveries.requestId, id));
    expect(d!.status).toBe("cancelled");
  });
});
