import { executionAsyncId } from "node:async_hooks";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { documentReadings, permitAudit, permitInspections } from "../../db/schema.ts";
import { requestHelpers } from "../../test-support/document-requests.ts";
import { createTestContext, useTestContext, type ApiClient } from "../../test-support/harness.ts";
import { multipart } from "../../test-support/multipart.ts";
import { useWorld } from "../../test-support/world.ts";
import { readDueDocuments } from "./index.ts";
import { GAVE_UP } from "./readings.claim.ts";
import { leaseMs } from "./reader.worker.ts";
import { UnreadableDocumentError, type readDocument } from "./read/index.ts";

// Issue 28, the server side: a reading enqueued by every upload, read once (the claim, the lease),
// the readings API (staff only, scoped), accepting suggestions through the normal writes with the
// audit's source, and the list's search over documents' text. The reader itself (PDF text layer,
// OCR) has its own tests; here it reads a test file's bytes as its text ("%PDF" files of words),
// counting its calls, so these tests say what the server does around it.

/** True while a promise hook is on (before Node 24 an enabled AsyncLocalStorage keeps one on). */
async function promisesTracked(): Promise<boolean> {
  await null;
  const first = executionAsyncId();
  await null;
  return executionAsyncId() !== first;
}

const reads = { count: 0 };
/** The reader of these tests: a file's bytes are its text ("%PDF" files of words; "\f" between pages). */
const read: typeof readDocument = async (bytes) => {
  reads.count++;
  const text = Buffer.from(bytes)
    .toString("utf8")
    .replace(/^%PDF-1\.\d\s*/, "");
  if (text.includes("CORRUPT")) throw new UnreadableDocumentError("The file is not a readable PDF.");
  if (text.includes("FLAKY")) throw new Error("the reader's process stopped");
  const pages = text.split("\f").map((t, i) => ({ page: i + 1, text: t, source: "text" as const }));
  return { pageCount: pages.length, pages, notice: null };
};

const t = useTestContext({ UPLOAD_MAX_BYTES: String(64 * 1024) });
const w = useWorld(t, { permits: true, otherAdmin: true });
const h = requestHelpers(t);

const PERMIT_CARD = [
  "CITY OF SPRINGFIELD",
  "Building Permit",
  "Permit No. BP-2026-0042",
  "Issue Date: 01/15/2026",
  "Expiration Date: 12/31/2030",
  "Work: install a retaining wall along the creek",
].join("\n");
const INSPECTION = [
  "\f",
  "Inspection Report",
  "Inspection Result: Passed",
  "Inspection Date: 02/10/2026",
].join("\n");
const pdf = (text: string) => `%PDF-1.4\n${text}`;
let n = 0;
/** A file of its own (another hash) unless `same`. */
const unique = (text: string) => pdf(`${text}\nRef ${++n}-${Date.now()}`);

/** The app's context with the tests' reader. */
const ctx = () => ({ ...t.app.ctx, read });
const reader = () => readDueDocuments(ctx());
const readingRows = () => t.db.select().from(documentReadings);
async function readingOf(sha: string) {
  const [row] = await t.db.select().from(documentReadings).where(eq(documentReadings.sha256, sha));
  return row;
}
const sha256 = async (content: string) => createHash("sha256").update(content).digest("hex");

function uploadTo(
  api: ApiClient,
  url: string,
  content: string,
  filename = "permit.pdf",
  type = "application/pdf",
) {
  return api.request({
    method: "POST",
    url,
    ...multipart([{ name: "file", filename, contentType: type, content }]),
  });
}
const attach = (api: ApiClient, permitId: string, content: string, filename?: string, type?: string) =>
  uploadTo(api, `/api/permits/${permitId}/attachments`, content, filename, type);

async function newBond(api: ApiClient, amount = "10000") {
  const res = await api.post("/api/permits", {
    permit_number: `B-${++n}`,
    permit_name: "Performance bond",
    record_type: "bond",
    agency: "County",
    issue_date: "2026-01-01",
    expiration_date: "2031-01-01",
    bond_amount: amount,
    guarantee_type: "Performance",
    is_required: true,
  });
  if (res.statusCode !== 201) throw new Error(`bond: ${res.statusCode} ${res.body}`);
  return res.json().id as string;
}

describe("every upload asks for one reading per company and file hash", () => {
  it("a permit's attachment, a ledger document and a party's file are enqueued; other types are not; the same file twice is one reading", async () => {
    const card = unique(PERMIT_CARD);
    expect((await attach(w.user, w.permitId, card)).statusCode).toBe(201);
    const row = await readingOf(await sha256(card));
    expect(row).toMatchObject({
      companyId: w.companyId,
      status: "pending",
      staged: false,
      filename: "permit.pdf",
    });
    expect(row!.sourceKey).toMatch(new RegExp(`^companies/${w.companyId}/attachments/`));

    // The same bytes on the hidden permit: still one reading.
    expect((await attach(w.admin, w.hiddenPermitId, card, "copy.pdf")).statusCode).toBe(201);
    expect((await readingRows()).filter((r) => r.sha256 === row!.sha256)).toHaveLength(1);
    // The same bytes in another company: that company's own reading.
    expect((await attach(w.otherAdmin, w.foreignPermitId, card)).statusCode).toBe(201);
    expect(
      (await readingRows())
        .filter((r) => r.sha256 === row!.sha256)
        .map((r) => r.companyId)
        .sort(),
    ).toEqual([w.companyId, w.otherCompanyId].sort());

    const text = unique("plain words");
    expect((await attach(w.user, w.permitId, text, "notes.txt", "text/plain")).statusCode).toBe(201);
    expect(await readingOf(await sha256(text))).toBeUndefined();

    const bondId = await newBond(w.admin);
    const rider = unique("Rider: the bond amount is increased");
    expect((await uploadTo(w.user, `/api/bonds/${bondId}/documents`, rider, "rider.pdf")).statusCode).toBe(
      201,
    );
    expect(await readingOf(await sha256(rider))).toMatchObject({ filename: "rider.pdf", status: "pending" });

    const { token } = await h.ask(w.admin, w.permitId);
    const answer = unique("an inspection report from the party");
    expect((await h.party().upload(token, "party.pdf", answer)).statusCode).toBe(201);
    expect(await readingOf(await sha256(answer))).toMatchObject({
      filename: "party.pdf",
      companyId: w.companyId,
    });
  });

  it("the form's staged file (POST /api/document-readings): 202 pending, read, then its stored copy removed", async () => {
    const card = unique(PERMIT_CARD);
    const res = await uploadTo(w.user, "/api/document-readings", card, "new-permit.pdf");
    expect(res.statusCode).toBe(202);
    const { reading } = res.json();
    expect(reading).toMatchObject({
      filename: "new-permit.pdf",
      status: "pending",
      suggestions: [],
      attachmentId: null,
    });
    const row = await readingOf(await sha256(card));
    expect(row).toMatchObject({ staged: true, id: reading.id });
    const file = path.join(t.dataDir, "files", row!.sourceKey!);
    expect(fs.existsSync(file)).toBe(true);

    await reader();
    const done = (await w.user.get(`/api/document-readings/${reading.id}`)).json().reading;
    expect(done.status).toBe("done");
    expect(done.suggestions.map((s: { field: string; value: string }) => [s.field, s.value])).toEqual(
      expect.arrayContaining([
        ["permit_number", "BP-2026-0042"],
        ["expiration_date", "2030-12-31"],
      ]),
    );
    expect((await readingOf(row!.sha256))!.sourceKey).toBeNull();
    expect(fs.existsSync(file)).toBe(false);

    // The same file again: the reading it already has, nothing stored twice.
    const again = await uploadTo(w.admin, "/api/document-readings", card, "again.pdf");
    expect(again.statusCode).toBe(202);
    expect(again.json().reading).toMatchObject({ id: reading.id, status: "done" });
  });

  it("the staged upload refuses what cannot be read, an empty file, and a super-admin without a company", async () => {
    const txt = await uploadTo(w.user, "/api/document-readings", "words", "a.txt", "text/plain");
    expect(txt.statusCode).toBe(400);
    expect(txt.json().message).toBe("Only PDF, PNG, JPEG and TIFF files can be read.");
    expect((await uploadTo(w.user, "/api/document-readings", "", "empty.pdf")).statusCode).toBe(400);
    const noCompany = await uploadTo(w.superAdmin, "/api/document-readings", unique("x"), "a.pdf");
    expect(noCompany.statusCode).toBe(400);
    expect(noCompany.json().fields).toHaveProperty("company_id");
    const content = unique(PERMIT_CARD);
    const named = await w.superAdmin.request({
      method: "POST",
      url: "/api/document-readings",
      ...multipart([
        { name: "company_id", content: w.otherCompanyId },
        { name: "file", filename: "b.pdf", contentType: "application/pdf", content },
      ]),
    });
    expect(named.statusCode).toBe(202);
    expect((await readingOf(await sha256(content)))!.companyId).toBe(w.otherCompanyId);
    // A company-admin's company_id names nothing: the reading is their own company's.
    const own = unique(PERMIT_CARD);
    await w.admin.request({
      method: "POST",
      url: "/api/document-readings",
      ...multipart([
        { name: "company_id", content: w.otherCompanyId },
        { name: "file", filename: "c.pdf", contentType: "application/pdf", content: own },
      ]),
    });
    expect((await readingOf(await sha256(own)))!.companyId).toBe(w.companyId);
  });
});

describe("the reader: exactly once, a restart, failures", () => {
  it("two app instances on one database read each document once", async () => {
    await reader(); // what earlier tests left
    const second = await createTestContext();
    // Another app, reading our database and files (its own would be others).
    const other = { ...second.app.ctx, db: t.db, storage: t.app.ctx.storage, read };
    try {
      const files = Array.from({ length: 6 }, () => unique(PERMIT_CARD));
      for (const f of files) expect((await attach(w.user, w.permitId, f)).statusCode).toBe(201);
      const before = reads.count;
      const [a, b] = await Promise.all([readDueDocuments(ctx()), readDueDocuments(other)]);
      expect(a.done + b.done).toBe(6);
      expect(reads.count - before).toBe(6);
      for (const f of files)
        expect(await readingOf(await sha256(f))).toMatchObject({ status: "done", attempts: 1 });
    } finally {
      await second.close();
    }
  });

  it("a reading claimed by a process that died is read again after the lease, not before", async () => {
    const card = unique(PERMIT_CARD);
    await attach(w.user, w.permitId, card);
    const sha = await sha256(card);
    // A process claimed it (status reading, one attempt) a moment ago, then stopped.
    await t.db
      .update(documentReadings)
      .set({ status: "reading", attempts: 1, claimedAt: new Date() })
      .where(eq(documentReadings.sha256, sha));
    await reader();
    expect(await readingOf(sha)).toMatchObject({ status: "reading", attempts: 1 });
    const later = new Date(Date.now() + leaseMs(t.app.ctx.config) + 1000);
    await readDueDocuments(ctx(), { now: () => later });
    expect(await readingOf(sha)).toMatchObject({ status: "done", attempts: 2 });
  });

  it("a document the reader cannot read fails in words; another failure is tried 3 times, then given up", async () => {
    const bad = unique("CORRUPT");
    await attach(w.user, w.permitId, bad);
    await reader();
    expect(await readingOf(await sha256(bad))).toMatchObject({
      status: "failed",
      error: "The file is not a readable PDF.",
      attempts: 1,
    });
    const flaky = unique("FLAKY");
    await attach(w.user, w.permitId, flaky);
    const sha = await sha256(flaky);
    let now = Date.now();
    for (const expected of ["pending", "pending", "failed"]) {
      await readDueDocuments(ctx(), { now: () => new Date(now) });
      expect((await readingOf(sha))!.status).toBe(expected);
      now += 60 * 60_000;
    }
    expect((await readingOf(sha))!.error).toMatch(/after 3 tries/);
    // A row left 'reading' after its last try is given up once its lease runs out.
    const stuck = unique(PERMIT_CARD);
    await attach(w.user, w.permitId, stuck);
    await t.db
      .update(documentReadings)
      .set({
        status: "reading",
        attempts: 3,
        claimedAt: new Date(Date.now() - leaseMs(t.app.ctx.config) - 1000),
      })
      .where(eq(documentReadings.sha256, await sha256(stuck)));
    await reader();
    expect(await readingOf(await sha256(stuck))).toMatchObject({ status: "failed", error: GAVE_UP });
  });
});

describe("the readings API: staff only, scoped", () => {
  it("a permit's readings (ledger documents included) for staff; 403 for a client-user; 404 for another company's", async () => {
    await reader();
    const list = await w.user.get(`/api/permits/${w.permitId}/document-readings`);
    expect(list.statusCode).toBe(200);
    const readings = list.json().readings;
    expect(readings.length).toBeGreaterThan(0);
    expect(readings.every((r: { attachmentId: string | null }) => r.attachmentId)).toBe(true);

    const bondId = await newBond(w.admin);
    await uploadTo(w.user, `/api/bonds/${bondId}/documents`, unique("Rider document"), "rider.pdf");
    await reader();
    const bondReadings = (await w.admin.get(`/api/permits/${bondId}/document-readings`)).json().readings;
    expect(bondReadings.map((r: { filename: string }) => r.filename)).toEqual(["rider.pdf"]);

    const id = readings[0].id;
    expect((await w.clientUser.get(`/api/permits/${w.permitId}/document-readings`)).statusCode).toBe(403);
    expect((await w.clientUser.get(`/api/document-readings/${id}`)).statusCode).toBe(403);
    expect((await w.clientUser.get(`/api/permits/${w.hiddenPermitId}/document-readings`)).statusCode).toBe(
      404,
    );
    expect((await uploadTo(w.clientUser, "/api/document-readings", unique(PERMIT_CARD))).statusCode).toBe(
      403,
    );
    expect(
      (
        await w.clientUser.post(`/api/permits/${w.permitId}/accept-suggestions`, {
          reading_id: id,
          fields: [{ field: "permit_number", value: "X" }],
        })
      ).statusCode,
    ).toBe(403);

    expect((await w.otherAdmin.get(`/api/document-readings/${id}`)).statusCode).toBe(404);
    expect((await w.otherAdmin.get(`/api/permits/${w.permitId}/document-readings`)).statusCode).toBe(404);
    expect((await w.admin.get(`/api/permits/${w.foreignPermitId}/document-readings`)).statusCode).toBe(404);
    expect(
      (
        await w.otherAdmin.post(`/api/permits/${w.permitId}/accept-suggestions`, {
          reading_id: id,
          fields: [{ field: "permit_number", value: "X" }],
        })
      ).statusCode,
    ).toBe(404);
    // Another company's reading named on our own permit: not found either.
    const theirs = unique(PERMIT_CARD);
    await attach(w.otherAdmin, w.foreignPermitId, theirs);
    await reader();
    const theirId = (await readingOf(await sha256(theirs)))!.id;
    expect((await w.admin.get(`/api/document-readings/${theirId}`)).statusCode).toBe(404);
    const res = await w.admin.post(`/api/permits/${w.permitId}/accept-suggestions`, {
      reading_id: theirId,
      fields: [{ field: "permit_number", value: "BP-2026-0042" }],
    });
    expect(res.statusCode).toBe(404);
    expect((await w.superAdmin.get(`/api/document-readings/${theirId}`)).statusCode).toBe(200);
  });

  it("a request's readings: the files of its latest submission, for staff", async () => {
    const { id, token } = await h.ask(w.admin, w.permitId);
    const answer = unique(PERMIT_CARD);
    await h.party().upload(token, "party-permit.pdf", answer);
    await h.party().submit(token, {});
    await reader();
    const res = await w.user.get(`/api/requests/${id}/document-readings`);
    expect(res.statusCode).toBe(200);
    expect(res.json().readings).toEqual([
      expect.objectContaining({ filename: "party-permit.pdf", status: "done", attachmentId: null }),
    ]);
    expect((await w.clientUser.get(`/api/requests/${id}/document-readings`)).statusCode).toBe(403);
    expect((await w.otherAdmin.get(`/api/requests/${id}/document-readings`)).statusCode).toBe(404);
  });
});

describe("accepting suggestions (POST /api/permits/:id/accept-suggestions)", () => {
  async function readPermitFile(permitId: string, text: string, filename = "permit.pdf") {
    const content = unique(text);
    expect((await attach(w.user, permitId, content, filename)).statusCode).toBe(201);
    await reader();
    return (await readingOf(await sha256(content)))!;
  }

  it("saves through the permit's update (validation, audit) with the source on every entry", async () => {
    const permit = await t.make.permit({
      companyId: w.companyId,
      clientId: w.seenClientId,
      expirationDate: "2026-01-01",
    });
    const reading = await readPermitFile(permit.id, PERMIT_CARD + INSPECTION);
    const res = await w.user.post(`/api/permits/${permit.id}/accept-suggestions`, {
      reading_id: reading.id,
      fields: [
        { field: "permit_number", value: "BP-2026-0042" },
        { field: "expiration_date", value: "2030-12-31" },
        { field: "inspection_result", value: "Passed" },
        { field: "inspection_date", value: "2026-02-10" },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().permit).toMatchObject({ permit_number: "BP-2026-0042", expiration_date: "2030-12-31" });
    const audit = await t.db.select().from(permitAudit).where(eq(permitAudit.permitId, permit.id));
    const byField = Object.fromEntries(audit.map((a) => [a.field, a]));
    expect(byField.expiration_date).toMatchObject({
      oldValue: "2026-01-01",
      newValue: "2030-12-31",
      source: "from document permit.pdf, page 1",
    });
    expect(byField.permit_number!.source).toBe("from document permit.pdf, page 1");
    expect(byField.inspection).toMatchObject({ source: "from document permit.pdf, page 2" });
    const [inspection] = await t.db
      .select()
      .from(permitInspections)
      .where(eq(permitInspections.permitId, permit.id));
    expect(inspection).toMatchObject({ inspectionType: "Inspection (from document)", result: "Passed" });
    // The upload's own entry was typed by no one from a document: no source.
    expect(audit.filter((a) => a.action === "upload").every((a) => a.source === null)).toBe(true);
    // The audit's source store is switched off again once the accept is done (decision 0018's promise hook).
    expect(await promisesTracked()).toBe(false);
    // The trail answers it.
    const trail = (await w.user.get(`/api/permits/${permit.id}/audit`)).json().entries;
    expect(trail.find((e: { field: string }) => e.field === "expiration_date").source).toBe(
      "from document permit.pdf, page 1",
    );
  });

  it("the audit names the file as the permit has it, though the same bytes were read first under another name", async () => {
    const content = unique(PERMIT_CARD);
    await attach(w.user, w.hiddenPermitId, content, "first-name.pdf");
    const permit = await t.make.permit({
      companyId: w.companyId,
      clientId: w.seenClientId,
      expirationDate: "2026-01-01",
    });
    await attach(w.user, permit.id, content, "second-name.pdf");
    await reader();
    const reading = (await readingOf(await sha256(content)))!;
    expect(reading.filename).toBe("first-name.pdf");
    const listed = (await w.user.get(`/api/permits/${permit.id}/document-readings`)).json().readings;
    expect(listed[0]).toMatchObject({ id: reading.id, filename: "second-name.pdf" });
    const res = await w.user.post(`/api/permits/${permit.id}/accept-suggestions`, {
      reading_id: reading.id,
      fields: [{ field: "expiration_date", value: "2030-12-31" }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const audit = await t.db.select().from(permitAudit).where(eq(permitAudit.permitId, permit.id));
    expect(audit.find((a) => a.field === "expiration_date")?.source).toBe(
      "from document second-name.pdf, page 1",
    );
  });

  it("the value a person edited is what is saved, validated like the form; bad input changes nothing", async () => {
    const permit = await t.make.permit({
      companyId: w.companyId,
      clientId: w.seenClientId,
      expirationDate: "2026-01-01",
    });
    const reading = await readPermitFile(permit.id, PERMIT_CARD);
    const auditBefore = await t.db.select().from(permitAudit).where(eq(permitAudit.permitId, permit.id));
    const bad = async (fields: { field: string; value: string }[], status = 400) => {
      const res = await w.user.post(`/api/permits/${permit.id}/accept-suggestions`, {
        reading_id: reading.id,
        fields,
      });
      expect(res.statusCode, res.body).toBe(status);
      return res.json();
    };
    // The permit number would be saved with a bad date: both refused, neither written.
    const body = await bad([
      { field: "permit_number", value: "NEW-1" },
      { field: "expiration_date", value: "2030-02-30" },
    ]);
    expect(body.fields).toHaveProperty("expiration_date");
    await bad([{ field: "bond_number", value: "SB-1" }]); // a permit has no bond number
    await bad([{ field: "surety_company", value: "Nobody" }]);
    await bad([{ field: "inspection_result", value: "Passed" }]); // without its date
    await bad([
      { field: "issue_date", value: "2026-01-15" },
      { field: "issue_date", value: "2026-01-16" },
    ]);
    await bad(
      [
        { field: "permit_number", value: "NEW-1" },
        { field: "expiration_date", value: "2020-01-01" },
      ].slice(0, 0),
    );
    const stillThere = await t.db.select().from(permitAudit).where(eq(permitAudit.permitId, permit.id));
    expect(stillThere).toHaveLength(auditBefore.length);
    expect((await w.user.get(`/api/permits/${permit.id}`)).json()).toMatchObject({
      permit_number: permit.permitNumber,
    });

    const edited = await w.user.post(`/api/permits/${permit.id}/accept-suggestions`, {
      reading_id: reading.id,
      fields: [{ field: "expiration_date", value: "2031-06-30" }],
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().permit.expiration_date).toBe("2031-06-30");
  });

  it("a bond's new amount with its effective date is a Rider on the ledger, the document its own", async () => {
    const bondId = await newBond(w.admin, "10000");
    const rider = unique(
      [
        "BOND RIDER",
        "Bond No. SB-7781",
        "The penal sum of the bond is increased to $12,500.00",
        "Effective Date: 03/01/2026",
      ].join("\n"),
    );
    expect((await uploadTo(w.user, `/api/bonds/${bondId}/documents`, rider, "rider.pdf")).statusCode).toBe(
      201,
    );
    await reader();
    const reading = (await readingOf(await sha256(rider)))!;
    // Whatever the suggester found, the person sends the amount and date (a suggestion of the field must exist).
    const fields = (reading.suggestions as { field: string }[]).map((s) => s.field);
    expect(fields).toContain("bond_amount");
    const sent = [{ field: "bond_amount", value: "12500.00" }];
    if (fields.includes("rider_effective_date"))
      sent.push({ field: "rider_effective_date", value: "2026-03-01" });
    const res = await w.user.post(`/api/permits/${bondId}/accept-suggestions`, {
      reading_id: reading.id,
      fields: sent,
    });
    if (!fields.includes("rider_effective_date")) {
      // Without the date the bond's amount cannot change (it has a ledger): refused in words.
      expect(res.statusCode).toBe(400);
      return;
    }
    expect(res.statusCode, res.body).toBe(200);
    const ledger = (await w.user.get(`/api/bonds/${bondId}/ledger`)).json();
    const entry = ledger.entries.find((e: { kind: string }) => e.kind === "rider");
    expect(entry).toMatchObject({ change: "2500.00", effective_date: "2026-03-01" });
    const audit = await t.db.select().from(permitAudit).where(eq(permitAudit.permitId, bondId));
    const riderEntries = audit.filter((a) => a.action === "ledger" && a.source !== null);
    expect(riderEntries.map((a) => a.field).sort()).toEqual(["bond_ledger", "current_amount"]);
    expect(riderEntries.every((a) => a.source === "from document rider.pdf, page 1")).toBe(true);
    // The bond's opening entry (typed on the form) has none.
    expect(audit.filter((a) => a.action === "ledger" && a.source === null).length).toBeGreaterThan(0);
  });
});

describe("search by what documents say", () => {
  it("finds a permit by a word in its current file's text and names the file; never another company's", async () => {
    const ours = await t.make.permit({
      companyId: w.companyId,
      clientId: w.seenClientId,
      permitNumber: "SEARCH-1",
    });
    await attach(
      w.user,
      ours.id,
      unique("Geotechnical report: the embankment requires riprap"),
      "geotech.pdf",
    );
    const theirs = await t.make.permit({ companyId: w.otherCompanyId, permitNumber: "SEARCH-2" });
    await attach(w.otherAdmin, theirs.id, unique("Their embankment riprap schedule"), "theirs.pdf");
    await reader();

    const list = async (api: ApiClient, q: string) => {
      const res = await api.get(`/api/permits?group=none&page_size=100&q=${encodeURIComponent(q)}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().items as { id: string; matched_document: string | null }[];
    };
    expect(await list(w.user, "riprap")).toEqual([
      expect.objectContaining({ id: ours.id, matched_document: "geotech.pdf" }),
    ]);
    // Stemmed and several words (websearch syntax).
    expect((await list(w.admin, "embankments riprap")).map((i) => i.id)).toEqual([ours.id]);
    expect((await list(w.otherAdmin, "riprap")).map((i) => i.id)).toEqual([theirs.id]);
    expect((await list(w.clientUser, "riprap")).map((i) => i.id)).toEqual([ours.id]);
    // A match by number names no document.
    expect(await list(w.user, "SEARCH-1")).toEqual([
      expect.objectContaining({ id: ours.id, matched_document: null }),
    ]);
    // A new file archives the old one: its words no longer find the permit.
    await attach(w.user, ours.id, unique("Replacement file about drainage"), "drainage.pdf");
    await reader();
    expect(await list(w.user, "riprap")).toEqual([]);
    expect((await list(w.user, "drainage")).map((i) => i.matched_document)).toEqual(["drainage.pdf"]);
  });
});

describe("a company's Date Order", () => {
  it("is set on the company form by the super-admin, kept when left out, and read by the reader", async () => {
    const company = (await w.superAdmin.get(`/api/companies/${w.companyId}`)).json();
    expect(company.dateOrder).toBe("MDY");
    const { id: _id, logoUrl: _l, createdAt: _c, counts: _n, can: _can, ...stored } = company;
    const fields = Object.fromEntries(Object.entries(stored).map(([k, v]) => [k, v ?? ""]));
    const put = await w.superAdmin.put(`/api/companies/${w.companyId}`, { ...fields, dateOrder: "DMY" });
    expect(put.statusCode, put.body).toBe(200);
    expect((await w.superAdmin.get(`/api/companies/${w.companyId}`)).json().dateOrder).toBe("DMY");
    const kept = await w.superAdmin.put(`/api/companies/${w.companyId}`, { ...fields, dateOrder: undefined });
    expect(kept.statusCode).toBe(200);
    expect((await w.superAdmin.get(`/api/companies/${w.companyId}`)).json().dateOrder).toBe("DMY");
    expect(
      (await w.superAdmin.put(`/api/companies/${w.companyId}`, { ...fields, dateOrder: "YMD" })).statusCode,
    ).toBe(400);

    const content = unique("Permit No. DMY-1\nExpiration Date: 03/04/2031");
    await attach(w.user, w.permitId, content);
    await reader();
    const expiry = (
      (await readingOf(await sha256(content)))!.suggestions as { field: string; value: string }[]
    ).find((s) => s.field === "expiration_date");
    expect(expiry?.value).toBe("2031-04-03");
    await t.db.execute(sql`update companies set date_order = 'MDY' where id = ${w.companyId}`);
  });

  it("a company-admin sets it with the company's settings (as the currency); left out, it is kept", async () => {
    const settings = (await w.admin.get("/api/notifications/settings")).json();
    expect(settings.dateOrder).toBe("MDY");
    const body = {
      email30Day: settings.email30Day,
      email7Day: settings.email7Day,
      email1Day: settings.email1Day,
      recipientUserIds: [],
    };
    const put = await w.admin.put("/api/notifications/settings", { ...body, dateOrder: "DMY" });
    expect(put.statusCode, put.body).toBe(200);
    expect((await w.admin.get("/api/notifications/settings")).json().dateOrder).toBe("DMY");
    await w.admin.put("/api/notifications/settings", body);
    expect((await w.superAdmin.get(`/api/companies/${w.companyId}`)).json().dateOrder).toBe("DMY");
    expect((await w.admin.put("/api/notifications/settings", { ...body, dateOrder: "YMD" })).statusCode).toBe(
      400,
    );
    await t.db.execute(sql`update companies set date_order = 'MDY' where id = ${w.companyId}`);
  });
});
