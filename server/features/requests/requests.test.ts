import fs from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contacts, documentRequests, permitAudit, requestFiles } from "../../db/schema.ts";
import { requestHelpers } from "../../test-support/document-requests.ts";
import { useTestContext } from "../../test-support/harness.ts";
import { useWorld } from "../../test-support/world.ts";

// Document requests (issue 27): asking, the party's link, its limits, tenants and roles.
// The review (approval applied, concurrent reviewers, e-mails) is in requests.review.test.ts.

const t = useTestContext({ UPLOAD_MAX_BYTES: "4096", REQUEST_LINK_MISS_LIMIT: "5" });
const w = useWorld(t, { permits: true, otherAdmin: true });
const h = requestHelpers(t);

/** Every stored file under the test's data folder (the local storage driver). */
function storedFiles(): string[] {
  const root = path.join(t.dataDir, "files");
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => d.name);
}

describe("asking for a document (POST /api/permits/:permitId/requests)", () => {
  it("requires sign-in on every staff route", async () => {
    const id = t.make.uuid();
    for (const res of [
      await t.anonymous.get(`/api/permits/${w.permitId}/request-options`),
      await t.anonymous.get(`/api/permits/${w.permitId}/requests`),
      await t.anonymous.post(`/api/permits/${w.permitId}/requests`, { documentKind: "other" }),
      await t.anonymous.post(`/api/requests/${id}/approve`, { submissionId: id }),
      await t.anonymous.post(`/api/requests/${id}/reject`, { submissionId: id, reason: "x" }),
      await t.anonymous.post(`/api/requests/${id}/revoke`),
      await t.anonymous.get(`/api/requests/${id}/files/${id}`),
    ])
      expect(res.statusCode).toBe(401);
  });

  it("answers 404 for another company's permit and a client-user's hidden one, 403 for a client-user", async () => {
    const body = { name: "X", email: "x@example.com", documentKind: "inspection_report" };
    expect((await w.admin.post(`/api/permits/${w.foreignPermitId}/requests`, body)).statusCode).toBe(404);
    expect((await w.admin.get(`/api/permits/${w.foreignPermitId}/request-options`)).statusCode).toBe(404);
    expect((await w.admin.get(`/api/permits/${w.foreignPermitId}/requests`)).statusCode).toBe(404);
    expect((await w.clientUser.get(`/api/permits/${w.hiddenPermitId}/requests`)).statusCode).toBe(404);
    expect((await w.clientUser.post(`/api/permits/${w.permitId}/requests`, body)).statusCode).toBe(403);
    expect((await w.clientUser.get(`/api/permits/${w.permitId}/request-options`)).statusCode).toBe(403);
    const rows = await t.db
      .select()
      .from(documentRequests)
      .where(eq(documentRequests.partyEmail, "x@example.com"));
    expect(rows).toEqual([]);
  });

  it("saves a new name and e-mail as a contact, keeps only the token's hash and sealed copy, and offers the contact next time", async () => {
    const before = Date.now();
    const { id, token, res } = await h.ask(w.user, w.permitId, {
      email: "Pat.Lee@Agency.example",
      name: "Pat Lee",
    });
    const view = res.json().request;
    expect(view).toMatchObject({
      partyName: "Pat Lee",
      partyEmail: "pat.lee@agency.example",
      partyOrganization: "Acme Surety",
      documentKind: "inspection_report",
      documentLabel: "Inspection Report",
      status: "open",
      state: "sent",
      stateLabel: "Sent",
      createdByName: "Sam Baker",
      submissions: [],
    });
    const days = (Date.parse(view.expiresAt) - before) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await t.db.select().from(documentRequests).where(eq(documentRequests.id, id));
    expect(row!.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(res.json())).not.toContain(token);
    const [contact] = await t.db.select().from(contacts).where(eq(contacts.id, view.contactId));
    expect(contact).toMatchObject({
      companyId: w.companyId,
      name: "Pat Lee",
      email: "pat.lee@agency.example",
    });
    const options = (await w.admin.get(`/api/permits/${w.permitId}/request-options`)).json();
    expect(options.contacts.map((c: { id: string }) => c.id)).toContain(contact!.id);
    // Picked again: the same contact, no second one.
    const again = await h.ask(w.admin, w.permitId, {
      contactId: contact!.id,
      name: undefined,
      email: undefined,
    });
    expect((await again.res.json()).request.contactId).toBe(contact!.id);
    expect(
      (await t.db.select().from(contacts).where(eq(contacts.email, "pat.lee@agency.example"))).length,
    ).toBe(1);
  });

  it("refuses another company's contact, 'Other' without a Title, fields the kind does not offer, a rider on a permit", async () => {
    const [foreign] = await t.db
      .insert(contacts)
      .values({ companyId: w.otherCompanyId, name: "Theirs", email: "theirs@example.com" })
      .returning();
    const post = (body: object) =>
      w.admin.post(`/api/permits/${w.permitId}/requests`, {
        name: "Q",
        email: "q@example.com",
        documentKind: "inspection_report",
        ...body,
      });
    const cases: [object, string][] = [
      [{ contactId: foreign!.id, name: undefined, email: undefined }, "contactId"],
      [{ documentKind: "other" }, "title"],
      [{ documentKind: "inspection_report", fields: ["amount"] }, "fields"],
      [{ documentKind: "renewed_permit", fields: ["amount"] }, "fields"],
      [{ documentKind: "bond_rider", fields: ["amount"] }, "documentKind"],
      [{ name: undefined }, "name"],
      [{ email: "not-an-email" }, "email"],
      [{ expiresInDays: 91 }, "expiresInDays"],
    ];
    for (const [body, field] of cases) {
      const res = await post(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().fields ?? {}), JSON.stringify(body)).toContain(field);
    }
    expect(
      await t.db.select().from(documentRequests).where(eq(documentRequests.partyEmail, "q@example.com")),
    ).toEqual([]);
    const ok = await post({ documentKind: "other", title: "Traffic Plan", expiresInDays: 5 });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().request.documentLabel).toBe("Traffic Plan");
    expect(Date.parse(ok.json().request.expiresAt) - Date.now()).toBeLessThan(5 * 86_400_000 + 60_000);
  });
});

describe("the party's link (no sign-in)", () => {
  it("shows the request, the company's name and the item, nothing else; the first opening is in the trail as the party", async () => {
    const { id, token } = await h.ask(w.admin, w.permitId, { name: "Jane Roe" });
    const res = await h.party().page(token);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json();
    expect(page).toEqual({
      state: "open",
      company: { name: "Acme Builders", hasLogo: false },
      request: {
        documentLabel: "Inspection Report",
        title: null,
        message: "Please send the final inspection report.",
        dueDate: "2031-01-15",
        fields: [],
        itemKind: "permit",
        itemName: expect.any(String),
        itemNumber: expect.any(String),
        rejectReason: null,
      },
      files: [],
    });
    expect(res.body).not.toContain("Bayline Civil");
    expect(res.body).not.toContain("@");
    await h.party().page(token);
    const trail = await t.db
      .select()
      .from(permitAudit)
      .where(and(eq(permitAudit.permitId, w.permitId), eq(permitAudit.action, "request_viewed")));
    const mine = trail.filter((a) => a.userName === "Jane Roe (Acme Surety) via request link");
    expect(mine).toHaveLength(1);
    expect(mine[0]!.userId).toBeNull();
    const list = (await w.admin.get(`/api/permits/${w.permitId}/requests`)).json();
    expect(list.items.find((i: { id: string }) => i.id === id)).toMatchObject({
      state: "viewed",
      stateLabel: "Viewed",
    });
  });

  it("answers 404 for unknown and malformed tokens", async () => {
    const p = h.party("203.0.113.20");
    expect((await p.page("A".repeat(43))).statusCode).toBe(404);
    expect((await p.page("short")).statusCode).toBe(404);
    expect((await p.upload("B".repeat(43))).statusCode).toBe(404);
    expect((await p.submit("C".repeat(43))).statusCode).toBe(404);
  });

  it("limits guessing per address: after a few unknown tokens even a good one answers 429, other addresses are unaffected", async () => {
    const { token } = await h.ask(w.admin, w.permitId);
    const guesser = h.party("198.51.100.7");
    for (let i = 0; i < 5; i++) expect((await guesser.page(`${"G".repeat(42)}${i}`)).statusCode).toBe(404);
    const limited = await guesser.page(token);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["retry-after"]).toBeDefined();
    expect((await guesser.upload(token)).statusCode).toBe(429);
    expect((await h.party("198.51.100.8").page(token)).statusCode).toBe(200);
  });

  it("a link reaches its own request only: another request's files are neither listed nor reachable", async () => {
    const one = await h.ask(w.admin, w.permitId);
    const two = await h.ask(w.admin, w.permitId);
    const p = h.party();
    const up = await p.upload(one.token, "one.pdf");
    expect(up.statusCode, up.body).toBe(201);
    expect((await p.page(one.token)).json().files.map((f: { filename: string }) => f.filename)).toEqual([
      "one.pdf",
    ]);
    expect((await p.page(two.token)).json().files).toEqual([]);
    const fileId = up.json().file.id as string;
    // Staff reach a file only through its own request.
    expect((await w.admin.get(`/api/requests/${two.id}/files/${fileId}`)).statusCode).toBe(404);
    const download = await w.admin.get(`/api/requests/${one.id}/files/${fileId}`);
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe("%PDF-1.4 a report");
    expect(download.headers["content-disposition"]).toContain("attachment");
    expect((await w.clientUser.get(`/api/requests/${one.id}/files/${fileId}`)).statusCode).toBe(403);
    expect((await w.otherAdmin.get(`/api/requests/${one.id}/files/${fileId}`)).statusCode).toBe(404);
    // Submitting request 2 does not take request 1's file.
    expect((await p.submit(two.token)).statusCode).toBe(400);
  });

  it("takes only the fields it asked for, each checked; and at least one file", async () => {
    const { id, token } = await h.ask(w.admin, w.permitId, {
      documentKind: "renewed_permit",
      fields: ["new_expiration_date", "new_permit_number"],
    });
    const p = h.party();
    expect((await p.submit(token, { new_expiration_date: "2032-01-01" })).json().fields).toHaveProperty(
      "file",
    );
    await p.upload(token);
    const extra = await p.submit(token, { new_expiration_date: "2032-01-01", amount: "5000" });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().fields).toHaveProperty("amount");
    const bad = await p.submit(token, { new_expiration_date: "2032-02-30" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty("new_expiration_date");
    const [still] = await t.db.select().from(documentRequests).where(eq(documentRequests.id, id));
    expect(still!.status).toBe("open");
    const ok = await p.submit(token, { new_expiration_date: "2032-01-01", new_permit_number: "PN-NEW" });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ state: "submitted" });
    expect((await p.submit(token, { new_expiration_date: "2032-01-01" })).statusCode).toBe(409);
    // Until it is reviewed the party may still add a file: it joins the submission.
    expect((await p.upload(token, "page-2.pdf")).statusCode).toBe(201);
    const view = (await w.admin.get(`/api/permits/${w.permitId}/requests`))
      .json()
      .items.find((i: { id: string }) => i.id === id);
    expect(view.state).toBe("submitted");
    expect(view.submissions[0].values).toEqual({
      new_expiration_date: "2032-01-01",
      new_permit_number: "PN-NEW",
    });
    expect(view.submissions[0].files.map((f: { filename: string }) => f.filename)).toEqual([
      "report.pdf",
      "page-2.pdf",
    ]);
  });

  it("a failed upload leaves no row and no stored file", async () => {
    const { id, token } = await h.ask(w.admin, w.permitId);
    const before = storedFiles().length;
    const p = h.party();
    const big = await p.upload(token, "big.pdf", Buffer.alloc(5000, 1));
    expect(big.statusCode).toBe(413);
    const empty = await p.upload(token, "empty.pdf", "");
    expect(empty.statusCode).toBe(400);
    const badName = await p.upload(token, "a\u0000b.pdf");
    expect(badName.statusCode).toBe(400);
    expect(await t.db.select().from(requestFiles).where(eq(requestFiles.requestId, id))).toEqual([]);
    expect(storedFiles().length).toBe(before);
  });

  it("a revoked link and an expired one answer 410 with their state, and take nothing", async () => {
    const revoked = await h.ask(w.admin, w.permitId);
    expect((await w.clientUser.post(`/api/requests/${revoked.id}/revoke`)).statusCode).toBe(403);
    expect((await w.otherAdmin.post(`/api/requests/${revoked.id}/revoke`)).statusCode).toBe(404);
    const res = await w.user.post(`/api/requests/${revoked.id}/revoke`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().request).toMatchObject({ status: "revoked", state: "revoked", stateLabel: "Revoked" });
    expect((await w.user.post(`/api/requests/${revoked.id}/revoke`)).statusCode).toBe(409);
    const expired = await h.ask(w.admin, w.permitId);
    await t.db
      .update(documentRequests)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(documentRequests.id, expired.id));
    const p = h.party();
    for (const [token, state] of [
      [revoked.token, "revoked"],
      [expired.token, "expired"],
    ] as const) {
      for (const r of [
        await p.page(token),
        await p.upload(token),
        await p.submit(token),
        await p.logo(token),
      ]) {
        expect(r.statusCode).toBe(410);
        expect(r.json()).toEqual({ state, company: { name: "Acme Builders" } });
      }
    }
    const files = await t.db.select().from(requestFiles).where(eq(requestFiles.requestId, expired.id));
    expect(files).toEqual([]);
    const list = (await w.admin.get(`/api/permits/${w.permitId}/requests`)).json();
    expect(list.items.find((i: { id: string }) => i.id === expired.id).state).toBe("expired");
  });

  it("serves the company's logo only when it has one", async () => {
    const { token } = await h.ask(w.admin, w.permitId);
    const res = await h.party().logo(token);
    expect(res.statusCode).toBe(404);
  });
});

describe("what a client-user sees (GET /api/permits/:permitId/requests)", () => {
  it("that a document was requested and received, with dates; never the party's e-mail, the link, files or values", async () => {
    const { id, token } = await h.ask(w.admin, w.permitId, {
      documentKind: "renewed_permit",
      fields: ["new_expiration_date"],
      email: "secret.party@example.com",
    });
    await h.answer(token, { new_expiration_date: "2033-03-03" });
    const res = await w.clientUser.get(`/api/permits/${w.permitId}/requests`);
    expect(res.statusCode).toBe(200);
    const item = res.json().items.find((i: { id: string }) => i.id === id);
    expect(Object.keys(item).sort()).toEqual(
      [
        "createdAt",
        "documentKind",
        "documentLabel",
        "id",
        "reviewedAt",
        "state",
        "stateLabel",
        "submittedAt",
        "title",
      ].sort(),
    );
    expect(item).toMatchObject({ state: "submitted", documentLabel: "Renewed Permit" });
    for (const secret of ["secret.party@example.com", token, "2033-03-03", "report.pdf", "Jane Roe"])
      expect(res.body).not.toContain(secret);
    // The trail it reads leaves out the file names and values too.
    const trail = await w.clientUser.get(`/api/permits/${w.permitId}/audit`);
    expect(trail.statusCode).toBe(200);
    for (const secret of ["secret.party@example.com", "2033-03-03", "report.pdf"])
      expect(trail.body).not.toContain(secret);
  });
});
