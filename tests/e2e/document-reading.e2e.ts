import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import type { PermitFilterOptions, PermitFormOptions } from "../../shared/schemas/permits.ts";
import {
  BASE_URL,
  DEMO,
  eventually,
  PHONE,
  recordApiRequests,
  shot,
  signedIn,
  toast,
  useBrowser,
  viewportShot,
} from "./support.ts";

// Issue 28 in the browser: a bond rider PDF uploaded on a bond's page is read, its amount and
// effective date accepted become a rider in the Bond Ledger; a permit card PDF chosen on the
// new-permit form fills the form after Accept All; a client-user's page has no suggestions; the
// panel on a phone. The PDFs are drawn here with pdf-lib (text layer), nothing binary is committed.

const b = useBrowser({ viewport: { width: 1280, height: 800 } });
const stamp = Date.now().toString(36);
const HEADERS = { "x-requested-with": "permitrack" };
// Numbers with digits, as real ones have (the suggester passes over a "number" of letters only).
const digits = String(Date.now()).slice(-6);
const BOND_NUMBER = `PB-${digits}`;
const SURETY = "Western Surety Company";
const PERMIT_NUMBER = `BP-2026-${digits}`;

let bondId = "";
let permitId = "";

/** A one-page PDF of these lines; a tab splits a line into a label and its value, drawn apart. */
async function pdfOf(lines: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  lines.forEach((line, i) => {
    const y = 720 - i * 22;
    const [label, value] = line.split("\t");
    page.drawText(label!, { x: 60, y, size: 12, font });
    if (value) page.drawText(value, { x: 260, y, size: 12, font });
  });
  return Buffer.from(await doc.save());
}

const riderPdf = () =>
  pdfOf([
    "RIDER",
    "To be attached to and form a part of",
    `Bond No.\t${BOND_NUMBER}`,
    "Type of Bond\tPerformance Bond",
    "Principal\tSummit Ridge Construction",
    "Obligee\tCity of Springfield",
    "Project\tKestrelwood Storm Sewer Extension",
    `Surety Company\t${SURETY}`,
    "It is agreed that the Bond Amount (penal sum) is raised",
    "from $100,000.00 to",
    "Bond Amount\t$125,000.00",
    "Effective Date of Rider\tApril 1, 2026",
    "All other terms and conditions of the bond remain unchanged.",
  ]);

const permitPdf = () =>
  pdfOf([
    "CITY OF SPRINGFIELD",
    "Building Division - Department of Planning and Development",
    "BUILDING PERMIT",
    `Permit No.\t${PERMIT_NUMBER}`,
    "Date Issued\t03/15/2026",
    "Expiration Date\t09/11/2026",
    "Agency\tCity of Springfield Building Division",
    "Site Address\t1420 Lakeview Drive, Springfield",
    "Valuation\t$2,450,000.00",
    "This permit becomes null and void if work is not commenced within 180 days.",
  ]);

async function send(page: Page, url: string, data: unknown) {
  const res = await page.request.post(`${BASE_URL}${url}`, { headers: HEADERS, data });
  expect(res.status(), `POST ${url}: ${await res.text()}`).toBeLessThan(300);
  return res.json() as Promise<{ id?: string }>;
}

const region = (page: Page, name: string) => page.getByRole("region", { name, exact: true });
const panel = (page: Page, filename: string) => region(page, `Suggested from ${filename}`);

async function noSidewaysScroll(page: Page) {
  await eventually(() =>
    page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
}

beforeAll(async () => {
  // A bond in a project of the client-user's client, so the client-user can open its page too.
  const client = await signedIn(b, DEMO.clientUser);
  const seen = (await (
    await client.request.get(`${BASE_URL}/api/permits/filter-options`)
  ).json()) as PermitFilterOptions;
  await client.context().close();

  const admin = await signedIn(b, DEMO.companyAdmin);
  const options = (await (
    await admin.request.get(`${BASE_URL}/api/permits/form-options`)
  ).json()) as PermitFormOptions;
  const project = options.projects.find((p) => seen.projects.some((s) => s.id === p.id))!;
  const created = await send(admin, "/api/permits", {
    permit_number: `RB-${stamp}`.toUpperCase(),
    permit_name: `Read Rider Bond ${stamp}`,
    agency: "City of Springfield",
    project_id: project.id,
    is_required: true,
    archived: false,
    record_type: "bond",
    guarantee_type: "Performance",
    bond_amount: "100000.00",
    bond_number: BOND_NUMBER,
    surety_company: SURETY,
    issue_date: "2026-01-05",
    start_date: "2026-01-05",
    expiration_date: "2027-01-05",
    expiry_rule: "fixed",
  });
  bondId = created.id!;
  const permit = await send(admin, "/api/permits", {
    permit_number: `RP-${digits}`,
    permit_name: `Read Renewal Permit ${stamp}`,
    agency: "City of Springfield",
    project_id: project.id,
    is_required: true,
    archived: false,
    record_type: "permit",
    issue_date: "2025-03-15",
    start_date: "2025-03-15",
    expiration_date: "2026-03-14",
  });
  permitId = permit.id!;
  await admin.context().close();
});

describe("reading a bond rider on the bond's page", () => {
  it("uploads a rider PDF, accepts its amount and effective date, and the ledger shows the rider", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await page.goto(`${BASE_URL}/permits/${bondId}`);
    const entries = region(page, "Bond Ledger")
      .getByRole("table", { name: "Bond Ledger" })
      .locator("tbody tr");
    await eventually(() => entries.count()).toBe(1);

    const filename = `rider-${stamp}.pdf`;
    await region(page, "Attachments")
      .getByLabel("File to upload")
      .setInputFiles({ name: filename, mimeType: "application/pdf", buffer: await riderPdf() });
    await toast(page, "File uploaded.");

    // The panel appears with the file's name; each value beside the bond's.
    const suggestions = panel(page, filename);
    await eventually(() => suggestions.getByRole("listitem").count()).toBeGreaterThanOrEqual(2);
    const amount = suggestions.getByRole("listitem", { name: /^Bond Amount: / });
    await expect(amount.textContent()).resolves.toContain("$125,000.00");
    await expect(amount.textContent()).resolves.toContain("$100,000.00");
    await expect(amount.getByText("Differs").isVisible()).resolves.toBe(true);
    await expect(amount.textContent()).resolves.toMatch(/Page 1: /);
    const effective = suggestions.getByRole("listitem", { name: /^Rider Effective Date: / });
    await expect(effective.textContent()).resolves.toContain("Apr 1, 2026");
    // Nothing is written until a person accepts: the ledger still has one entry.
    await expect(entries.count()).resolves.toBe(1);
    await shot(page, "document-suggestions-bond-1280");

    // The same panel on a phone: stacked, nothing scrolls sideways.
    const phone = await signedIn(b, DEMO.companyUser, PHONE);
    await phone.goto(`${BASE_URL}/permits/${bondId}`);
    const onPhone = panel(phone, filename);
    await eventually(() => onPhone.getByRole("listitem").count()).toBeGreaterThanOrEqual(2);
    await noSidewaysScroll(phone);
    await onPhone.scrollIntoViewIfNeeded();
    await viewportShot(phone, "document-suggestions-bond-390");
    await shot(phone, "document-suggestions-bond-page-390");
    await phone.context().close();

    // Accept the amount: a rider needs its effective date too, so both go, as one rider.
    const requests = recordApiRequests(page);
    await amount.getByRole("button", { name: /^Accept Bond Amount/ }).click();
    await toast(page, `Saved from ${filename}.`);
    const sent = await requests.stop();
    expect(sent).toContain(`POST /api/permits/${bondId}/accept-suggestions`);
    await eventually(() => entries.count()).toBe(2);
    await expect(entries.nth(1).textContent()).resolves.toContain("Rider");
    await expect(entries.nth(1).textContent()).resolves.toContain("$125,000.00");
    // The rider's row names the file it was read from, as its document.
    await expect(entries.nth(1).textContent()).resolves.toContain(filename);
    await eventually(() => effective.getByText("Accepted").isVisible()).toBe(true);
    // The bond's amount is the rider's now: the row says so, and no longer differs.
    await eventually(() => amount.getByText("Accepted").isVisible()).toBe(true);
    await eventually(() => amount.textContent()).not.toContain("$100,000.00");
    await expect(amount.getByText("Differs").count()).resolves.toBe(0);
    // The audit trail says where the value came from.
    await eventually(() =>
      region(page, "Audit Trail")
        .getByText(new RegExp(`from document ${filename}, page 1`))
        .first()
        .isVisible(),
    ).toBe(true);
    await shot(page, "document-suggestions-bond-accepted-1280");
  });

  it("leaves the page once the bond carries everything the rider says", async () => {
    const page = await signedIn(b, DEMO.companyUser);
    await page.goto(`${BASE_URL}/permits/${bondId}`);
    const entries = region(page, "Bond Ledger")
      .getByRole("table", { name: "Bond Ledger" })
      .locator("tbody tr");
    await eventually(() => entries.count()).toBe(2);
    await eventually(() => region(page, "Attachments").getByText(`rider-${stamp}.pdf`).isVisible()).toBe(
      true,
    );
    await expect(region(page, "Document Suggestions").count()).resolves.toBe(0);

    // The list's search finds the bond by a word only its rider says, and names the file.
    await page.goto(`${BASE_URL}/permits`);
    await page.getByLabel("Search permits").fill("Kestrelwood");
    await page.waitForURL((url) => url.searchParams.get("q") === "Kestrelwood");
    await eventually(() => page.getByText(`Found in rider-${stamp}.pdf`).first().isVisible()).toBe(true);
    await shot(page, "document-search-1280");
  });

  it("shows a client-user no suggestions, and never asks for them", async () => {
    const page = await signedIn(b, DEMO.clientUser);
    const requests = recordApiRequests(page);
    await page.goto(`${BASE_URL}/permits/${bondId}`);
    await eventually(() => region(page, "Bond Ledger").isVisible()).toBe(true);
    const sent = await requests.stop();
    expect(sent.filter((r) => r.includes("document-readings"))).toEqual([]);
    await expect(region(page, "Document Suggestions").count()).resolves.toBe(0);
    await expect(page.getByText(/^Suggested from /).count()).resolves.toBe(0);
  });
});

describe("reading a permit card on the new-permit form", () => {
  it("fills the form's fields after Accept All", async () => {
    const page = await signedIn(b, DEMO.companyUser);
    await page.goto(`${BASE_URL}/permits/new`);
    await page.getByLabel("Permit Number", { exact: true }).fill("TYPED-1");
    const filename = `permit-card-${stamp}.pdf`;
    await page
      .getByRole("region", { name: "Permit File Upload" })
      .getByLabel("Permit file", { exact: true })
      .setInputFiles({ name: filename, mimeType: "application/pdf", buffer: await permitPdf() });

    const suggestions = panel(page, filename);
    await eventually(() => suggestions.getByRole("listitem").count()).toBeGreaterThanOrEqual(4);
    const number = suggestions.getByRole("listitem", { name: /^Permit Number: / });
    await expect(number.getByText("Differs").isVisible()).resolves.toBe(true);
    // Nothing is filled in until a person accepts.
    await expect(page.getByLabel("Permit Number", { exact: true }).inputValue()).resolves.toBe("TYPED-1");
    await suggestions.scrollIntoViewIfNeeded();
    await viewportShot(page, "document-suggestions-form-1280");

    await suggestions.getByRole("button", { name: "Accept All" }).click();
    await eventually(() => page.getByLabel("Permit Number", { exact: true }).inputValue()).toBe(
      PERMIT_NUMBER,
    );
    await expect(page.getByLabel("Issue Date", { exact: true }).inputValue()).resolves.toBe("2026-03-15");
    await expect(page.getByLabel("Expiration Date", { exact: true }).inputValue()).resolves.toBe(
      "2026-09-11",
    );
    await expect(page.getByLabel("Agency", { exact: true }).inputValue()).resolves.toBe(
      "City of Springfield Building Division",
    );
    await eventually(() => suggestions.getByText("Accepted").count()).toBeGreaterThanOrEqual(4);
    await viewportShot(page, "document-suggestions-form-accepted-1280");

    const phone = await signedIn(b, DEMO.companyUser, PHONE);
    await phone.goto(`${BASE_URL}/permits/new`);
    await phone
      .getByRole("region", { name: "Permit File Upload" })
      .getByLabel("Permit file", { exact: true })
      .setInputFiles({ name: filename, mimeType: "application/pdf", buffer: await permitPdf() });
    const onPhone = panel(phone, filename);
    await eventually(() => onPhone.getByRole("listitem").count()).toBeGreaterThanOrEqual(4);
    await noSidewaysScroll(phone);
    await onPhone.scrollIntoViewIfNeeded();
    await viewportShot(phone, "document-suggestions-form-390");
  });
});

/** The request link of the newest e-mail to `to` (the e2e run writes .eml files to DATA_DIR/outbox). */
async function linkMailedTo(to: string): Promise<string> {
  const dir = path.join(process.env.E2E_DATA_DIR ?? "data", "outbox");
  let link = "";
  await eventually(() => {
    const mails = fs.existsSync(dir)
      ? fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), "utf8"))
      : [];
    const found = mails
      .map((eml) =>
        eml
          .replace(/=\r?\n/g, "")
          .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      )
      .filter((eml) => eml.includes(to))
      .flatMap((eml) =>
        [...eml.matchAll(/https?:\/\/[^\s"'<>]+\/request\/([A-Za-z0-9_.~-]+)/g)].map((m) => m[1]!),
      );
    link = found.at(-1) ?? "";
    return Promise.resolve(link);
  }).not.toBe("");
  return link;
}

describe("reading a party's document in the request review", () => {
  it("shows what the document says beside what the party typed, and flags where they differ", async () => {
    const admin = await signedIn(b, DEMO.companyAdmin);
    const email = `clerk.${stamp}@springfield.example`;
    await send(admin, `/api/permits/${permitId}/requests`, {
      name: `Casey Clerk ${stamp}`,
      email,
      organization: "City of Springfield",
      documentKind: "renewed_permit",
      fields: ["new_expiration_date", "new_permit_number"],
    });
    const token = await linkMailedTo(email);

    // The party (no sign-in) sends the renewed permit and types a date one day off.
    const party = await b.newPage();
    const base = `${BASE_URL}/api/request-links/${encodeURIComponent(token)}`;
    const filename = `renewed-${stamp}.pdf`;
    const uploaded = await party.request.post(`${base}/files`, {
      headers: HEADERS,
      multipart: { file: { name: filename, mimeType: "application/pdf", buffer: await permitPdf() } },
    });
    expect(uploaded.status(), await uploaded.text()).toBeLessThan(300);
    const submitted = await party.request.post(`${base}/submit`, {
      headers: HEADERS,
      data: { values: { new_expiration_date: "2026-09-10", new_permit_number: PERMIT_NUMBER } },
    });
    expect(submitted.status(), await submitted.text()).toBeLessThan(300);

    await admin.goto(`${BASE_URL}/permits/${permitId}`);
    const suggestions = panel(admin, filename);
    await eventually(() => suggestions.getByRole("listitem").count()).toBeGreaterThanOrEqual(2);
    await eventually(() =>
      suggestions.getByText("The document says Sep 11, 2026; the party typed Sep 10, 2026.").isVisible(),
    ).toBe(true);
    const number = suggestions.getByRole("listitem", { name: /^Permit Number: / });
    await expect(number.getByText("Same").isVisible()).resolves.toBe(true);
    // Read-only: approving applies the party's values as before.
    await expect(suggestions.getByRole("button", { name: /^Accept/ }).count()).resolves.toBe(0);
    await suggestions.scrollIntoViewIfNeeded();
    await viewportShot(admin, "document-suggestions-request-review-1280");
  });
});

describe("a super-admin's new-permit form", () => {
  it("reads the file for the company chosen on the form", async () => {
    const sa = await signedIn(b, DEMO.superAdmin);
    await sa.goto(`${BASE_URL}/permits/new`);
    const filename = `super-card-${stamp}.pdf`;
    await sa
      .getByRole("region", { name: "Permit File Upload" })
      .getByLabel("Permit file", { exact: true })
      .setInputFiles({ name: filename, mimeType: "application/pdf", buffer: await permitPdf() });
    // No company yet: the file waits for one.
    await eventually(() =>
      sa.getByText(`Select a company to have ${filename} read for suggested values.`).isVisible(),
    ).toBe(true);
    const sent = sa.waitForResponse(
      (r) => r.request().method() === "POST" && r.url().endsWith("/api/document-readings"),
    );
    await sa.getByRole("combobox", { name: "Company" }).click();
    await sa.getByRole("option", { name: "Summit Ridge Construction" }).click();
    // Sent once the company is known (a super-admin's upload names it: the browser does not show
    // an upload's multipart body to the test, the panel's answer is the proof).
    const answer = await sent;
    expect(answer.status(), await answer.text()).toBe(202);
    // The server reads it (a busy CI machine runs two servers and two browsers on two cores: the
    // reading is followed through the API first, so a slow reading and a panel that never shows
    // it fail apart), then the panel shows it.
    const { reading } = (await answer.json()) as { reading: { id: string } };
    await expect
      .poll(
        async () =>
          (
            (await (await sa.request.get(`${BASE_URL}/api/document-readings/${reading.id}`)).json()) as {
              reading: { status: string };
            }
          ).reading.status,
        { timeout: 30_000, interval: 250 },
      )
      .toBe("done");
    const suggestions = panel(sa, filename);
    await eventually(() => suggestions.getByRole("listitem").count()).toBeGreaterThanOrEqual(4);
    await suggestions.getByRole("button", { name: "Accept All" }).click();
    await eventually(() => sa.getByLabel("Permit Number", { exact: true }).inputValue()).toBe(PERMIT_NUMBER);
  });
});

describe("a value corrected before it is accepted", () => {
  it("saves the person's correction, not what was read", async () => {
    const page = await signedIn(b, DEMO.companyUser);
    await page.goto(`${BASE_URL}/permits/${permitId}`);
    const filename = `permit-card-${stamp}.pdf`;
    await region(page, "Attachments")
      .getByLabel("File to upload")
      .setInputFiles({ name: filename, mimeType: "application/pdf", buffer: await permitPdf() });
    const suggestions = panel(page, filename);
    const agency = suggestions.getByRole("listitem", { name: /^Agency: / });
    await eventually(() => agency.isVisible()).toBe(true);
    await agency.getByRole("button", { name: "Edit Agency before accepting" }).click();
    await agency.getByLabel("Agency to save").fill("Springfield Building Division");
    await viewportShot(page, "document-suggestions-correct-1280");
    await agency.getByRole("button", { name: "Accept Agency as corrected" }).click();
    await toast(page, `Saved from ${filename}.`);
    await eventually(() =>
      region(page, "Agency Info").getByText("Springfield Building Division", { exact: true }).isVisible(),
    ).toBe(true);
    await eventually(() => agency.getByText("Accepted").isVisible()).toBe(true);
  });
});

describe("the company's date order", () => {
  it("is chosen on the company form and saved", async () => {
    const sa = await signedIn(b, DEMO.superAdmin);
    const list = (await (await sa.request.get(`${BASE_URL}/api/companies`)).json()) as {
      companies: { id: string; slug: string; dateOrder: string }[];
    };
    // The other demo company: the specs read this one's documents month first.
    const company = list.companies.find((c) => c.slug.includes("bayline"))!;
    const order = async () =>
      ((await (await sa.request.get(`${BASE_URL}/api/companies`)).json()) as typeof list).companies.find(
        (c) => c.id === company.id,
      )!.dateOrder;
    for (const [label, value] of [
      ["Day first (03/04/2026 = 3 April)", "DMY"],
      ["Month first (03/04/2026 = March 4)", "MDY"],
    ] as const) {
      await sa.goto(`${BASE_URL}/admin/companies/${company.id}/edit`);
      await sa.getByRole("combobox", { name: "Date Order" }).click();
      await sa.getByRole("option", { name: label }).click();
      await expect(sa.getByRole("combobox", { name: "Date Order" }).textContent()).resolves.toContain(label);
      if (value === "DMY") await shot(sa, "document-date-order-1280");
      await sa.getByRole("button", { name: "Save Company" }).click();
      await sa.waitForURL(/\/admin\/companies$/);
      await eventually(order).toBe(value);
    }
  });

  it("is a company admin's setting too, beside the currency", async () => {
    const admin = await signedIn(b, DEMO.otherCompanyAdmin);
    await admin.goto(`${BASE_URL}/settings/notifications`);
    await admin.getByRole("heading", { name: "Notification Settings" }).waitFor();
    const field = admin.getByRole("combobox", { name: "Date Order" });
    await eventually(() => field.textContent()).toContain("Month first (03/04/2026 = March 4)");
    for (const label of ["Day first (03/04/2026 = 3 April)", "Month first (03/04/2026 = March 4)"]) {
      await field.click();
      await admin.getByRole("option", { name: label }).click();
      await admin.getByRole("button", { name: "Save Settings" }).click();
      await eventually(() => admin.getByRole("button", { name: "Save Settings" }).isDisabled()).toBe(true);
      await admin.reload();
      await eventually(() => admin.getByRole("combobox", { name: "Date Order" }).textContent()).toContain(
        label,
      );
      if (label.startsWith("Day")) await shot(admin, "document-date-order-settings-1280");
    }
  });
});
