import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../shared/domain/dates.ts";
import type { PermitDetail, PermitList } from "../../shared/schemas/permits.ts";
import {
  BASE_URL,
  DEMO,
  eventually,
  PHONE,
  SCREENSHOT_DIR,
  shot,
  signedIn,
  toast,
  useBrowser,
  viewportShot,
} from "./support.ts";

// Document requests (issue 27) in the browser, against the real server: staff ask an outside party
// for a document from a permit's or a bond's page; the party answers through the e-mail's link
// without signing in (on a phone first); staff reject with a reason, then approve, and the permit
// gets the new term, the file and the trail's entry. A bond's rider from a surety agent becomes a
// ledger entry. The client-user reads the card without the party's details.

const stamp = Date.now().toString(36);
const DESKTOP = { width: 1280, height: 800 };
const b = useBrowser({ viewport: DESKTOP });
const CSRF = { "x-requested-with": "permitrack" };
/** Where the issue's screenshots are looked at, besides test-results/screenshots. */
const SHOTS = "/tmp/request-shots";

const region = (page: Page, name: string) => page.getByRole("region", { name, exact: true });
const day = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" }).format(
    new Date(`${iso}T00:00:00Z`),
  );

/** A screenshot of the whole page (or of what the viewport shows: a dialog), kept in SHOTS too. */
async function snap(page: Page, name: string, o: { viewport?: boolean } = {}) {
  await (o.viewport ? viewportShot(page, name) : shot(page, name));
  fs.mkdirSync(SHOTS, { recursive: true });
  fs.copyFileSync(path.join(SCREENSHOT_DIR, `${name}.png`), path.join(SHOTS, `${name}.png`));
}

/** A small, valid PDF: what an agency's scanner sends. */
const pdf = (name: string, words: string) => {
  const body = `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\n% ${words}\ntrailer<</Root 1 0 R>>\n%%EOF\n`;
  return { name, mimeType: "application/pdf", buffer: Buffer.from(body) };
};

/** The e-mails the server wrote (no SMTP_URL in the e2e run: .eml files in DATA_DIR/outbox). */
function outbox(): string[] {
  const dir = path.join(process.env.E2E_DATA_DIR ?? "data", "outbox");
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).map((file) => fs.readFileSync(path.join(dir, file), "utf8"));
}
/** Quoted-printable's soft line breaks and escapes undone, so a long link reads whole. */
const unfold = (eml: string) =>
  eml
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
/** The request link of the newest e-mail to `to` (waits for it), as the party clicks it. */
async function linkMailedTo(to: string, not: string[] = []): Promise<string> {
  let link = "";
  await eventually(async () => {
    const found = outbox()
      .map(unfold)
      .filter((eml) => eml.includes(to))
      .flatMap((eml) =>
        [...eml.matchAll(/https?:\/\/[^\s"'<>]+\/request\/[A-Za-z0-9_.~-]+/g)].map((m) => m[0]),
      )
      .filter((url) => !not.includes(url));
    link = found.at(-1) ?? "";
    return link;
  }).not.toBe("");
  return link;
}

let today = "";
let projectId = "";
let permit: PermitDetail;
let bond: PermitDetail;
let companyName = "";
const CLERK = {
  name: `Alex Rivera ${stamp}`,
  email: `alex.rivera.${stamp}@boulder-county.example`,
  org: "Boulder County Permits",
};
const AGENT = {
  name: `Pat Morgan ${stamp}`,
  email: `pat.morgan.${stamp}@keystone-surety.example`,
  org: "Keystone Surety",
};
let clerkLink = "";

async function create(request: APIRequestContext, data: Record<string, unknown>) {
  const res = await request.post(`${BASE_URL}/api/permits`, { headers: CSRF, data });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as PermitDetail;
}

beforeAll(async () => {
  // A project of the client-user's client, so the client-user sees these records too.
  const client = await signedIn(b, DEMO.clientUser);
  const seen = (await (
    await client.request.get(`${BASE_URL}/api/permits?group=none&page_size=1`)
  ).json()) as PermitList;
  projectId = seen.items[0]!.project!.id;
  await client.context().close();

  const admin = await signedIn(b, DEMO.companyAdmin);
  const me = await (await admin.request.get(`${BASE_URL}/api/me`)).json();
  today = new Intl.DateTimeFormat("en-CA", { timeZone: me.company?.timeZone ?? "UTC" }).format(new Date());
  companyName = me.company?.name ?? "";
  const base = { project_id: projectId, agency: "Boulder County", issue_date: addDays(today, -340) };
  permit = await create(admin.request, {
    ...base,
    record_type: "permit",
    permit_number: `RQ-P-${stamp}`.toUpperCase(),
    permit_name: `Grading permit ${stamp}`,
    expiration_date: addDays(today, 20),
  });
  bond = await create(admin.request, {
    ...base,
    record_type: "bond",
    permit_number: `RQ-B-${stamp}`.toUpperCase(),
    permit_name: `Performance bond ${stamp}`,
    guarantee_type: "Performance",
    bond_amount: "100000.00",
    surety_company: "Keystone Surety",
    expiration_date: addDays(today, 200),
  });
  await admin.context().close();
});

/** Fills the 'Request Document' dialog for a new contact and sends it. */
async function requestFrom(page: Page, who: typeof CLERK, o: { message: string; due?: string }) {
  await page.getByRole("button", { name: "Request Document" }).click();
  const dialog = page.getByRole("dialog", { name: "Request Document" });
  await dialog.getByLabel("Contact").fill(who.name);
  await dialog.getByLabel("E-mail").fill(who.email);
  await dialog.getByLabel("Organization").fill(who.org);
  if (o.due) await dialog.getByLabel("Due Date").fill(o.due);
  await dialog.getByLabel("Message").fill(o.message);
  await dialog.getByRole("button", { name: "Send Request" }).click();
  await toast(page, `Request sent to ${who.name}`);
  await eventually(() => dialog.count()).toBe(0);
}

/** The party's page submitted: the files chosen, the values typed, 'Submit'. */
async function answer(party: Page, file: ReturnType<typeof pdf>, values: Record<string, string>) {
  await party.getByLabel("Document file").setInputFiles(file);
  await eventually(() =>
    party.getByRole("list", { name: "Files sent" }).getByText(file.name).isVisible(),
  ).toBe(true);
  for (const [label, value] of Object.entries(values)) await party.getByLabel(label).fill(value);
  await party.getByRole("button", { name: "Submit" }).click();
  await eventually(() => party.getByRole("heading", { name: "Submitted, pending review" }).isVisible()).toBe(
    true,
  );
}

const requestItem = (page: Page, what: string) =>
  region(page, "Requests").getByRole("listitem", { name: `${what} request` });

describe("a renewed permit from an agency contact", () => {
  it("asks, the party uploads by link, the admin rejects, the party sends again, the admin approves", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await page.goto(`${BASE_URL}/permits/${permit.id}`);
    const card = region(page, "Requests");
    await eventually(() => card.getByText(/No documents requested yet/).isVisible()).toBe(true);
    await snap(page, "requests-card-empty-1280");

    // The dialog: clear messages for what is missing.
    await page.getByRole("button", { name: "Request Document" }).click();
    const dialog = page.getByRole("dialog", { name: "Request Document" });
    await expect(dialog.getByLabel("New Expiration Date").isChecked()).resolves.toBe(true);
    await expect(dialog.getByLabel("New Permit Number").isChecked()).resolves.toBe(true);
    await snap(page, "request-dialog-1280", { viewport: true });
    await dialog.getByRole("button", { name: "Send Request" }).click();
    await eventually(() =>
      dialog.getByText("Choose a contact or type the name of a new one").isVisible(),
    ).toBe(true);
    await expect(dialog.getByText("Enter the new contact's e-mail").isVisible()).resolves.toBe(true);
    await dialog.getByLabel("E-mail").fill("not-an-address");
    await dialog.getByRole("button", { name: "Send Request" }).click();
    await eventually(() => dialog.getByText(/Enter a valid e-mail address/).isVisible()).toBe(true);
    await snap(page, "request-dialog-errors-1280", { viewport: true });
    await dialog.getByRole("button", { name: "Cancel" }).click();

    await requestFrom(page, CLERK, {
      message: "Please upload the renewed grading permit.",
      due: addDays(today, 7),
    });
    const item = requestItem(page, "Renewed Permit");
    await eventually(() => item.getByText("Sent", { exact: true }).isVisible()).toBe(true);
    await expect(item.getByText(CLERK.email).isVisible()).resolves.toBe(true);
    await expect(item.getByText(`Due ${day(addDays(today, 7))}`).isVisible()).resolves.toBe(true);
    await snap(page, "requests-card-sent-1280");

    // The party: the e-mail's link in a browser of its own, no session, on a phone.
    clerkLink = await linkMailedTo(CLERK.email);
    const party = await b.newPage({ viewport: PHONE });
    await party.goto(clerkLink);
    await eventually(() => party.getByRole("heading", { name: "Renewed Permit" }).isVisible()).toBe(true);
    await expect(party.getByText(companyName).first().isVisible()).resolves.toBe(true);
    await expect(party.getByText(permit.permit_name).isVisible()).resolves.toBe(true);
    await expect(party.getByText("Please upload the renewed grading permit.").isVisible()).resolves.toBe(
      true,
    );
    await expect(party.getByRole("navigation").count()).resolves.toBe(0);
    await snap(party, "request-link-open-390");
    const sideways = await party.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(sideways).toBeLessThanOrEqual(0);
    // Opened: the card says so.
    await page.reload();
    await eventually(() => item.getByText("Viewed", { exact: true }).isVisible()).toBe(true);
    await snap(page, "requests-card-viewed-1280");
    await party.getByRole("button", { name: "Submit" }).click();
    await eventually(() => party.getByText("Add at least one file.").isVisible()).toBe(true);
    await snap(party, "request-link-errors-390");
    await expect(party.getByText("Enter the new expiration date").isVisible()).resolves.toBe(true);
    const firstDate = addDays(today, 380);
    await answer(party, pdf("renewed-permit-scan.pdf", "cut off"), {
      "New Expiration Date": firstDate,
      "New Permit Number": `RQ-P2-${stamp}`.toUpperCase(),
    });
    await snap(party, "request-link-submitted-390");

    // Staff: the submission with its values and file; Reject asks a reason.
    await page.reload();
    await eventually(() => item.getByText("Submitted", { exact: true }).isVisible()).toBe(true);
    await expect(item.getByText(day(firstDate)).isVisible()).resolves.toBe(true);
    await expect(item.getByText("New Expiration Date").isVisible()).resolves.toBe(true);
    const download = item.getByRole("link", { name: "renewed-permit-scan.pdf" });
    const href = (await download.getAttribute("href")) ?? "";
    expect(href).toMatch(/^\/api\/requests\/[^/]+\/files\/[^/]+$/);
    const bytes = await page.request.get(`${BASE_URL}${href}`);
    expect(bytes.status()).toBe(200);
    expect((await bytes.body()).subarray(0, 5).toString()).toBe("%PDF-");
    await snap(page, "requests-card-submitted-1280");
    await item.getByRole("button", { name: "Reject" }).click();
    const reject = page.getByRole("dialog", { name: "Reject Submission" });
    await reject.getByRole("button", { name: "Reject" }).click();
    await eventually(() => reject.getByText("Say what is wrong, so the contact can fix it").isVisible()).toBe(
      true,
    );
    const reason = "The scan is cut off at the bottom: please send the whole page.";
    await reject.getByLabel("Reason").fill(reason);
    await snap(page, "request-reject-dialog-1280", { viewport: true });
    await reject.getByRole("button", { name: "Reject" }).click();
    await eventually(() => item.getByText("Rejected", { exact: true }).isVisible()).toBe(true);
    await snap(page, "requests-card-rejected-1280");

    // The party reads the reason and sends again.
    await party.reload();
    await eventually(() => party.getByText(reason).isVisible()).toBe(true);
    await snap(party, "request-link-rejected-390");
    const newDate = addDays(today, 385);
    await answer(party, pdf("renewed-permit-full.pdf", "whole page"), {
      "New Expiration Date": newDate,
      "New Permit Number": `RQ-P2-${stamp}`.toUpperCase(),
    });
    // Still open to one more file until it is reviewed.
    await party.getByLabel("Document file").setInputFiles(pdf("renewed-permit-page-2.pdf", "page two"));
    await eventually(() => party.getByText("renewed-permit-page-2.pdf").isVisible()).toBe(true);

    // Approve: a new term with that date, the files among the permit's, the trail names the party.
    await page.reload();
    await eventually(() => item.getByText("Submitted", { exact: true }).isVisible()).toBe(true);
    await item.getByRole("button", { name: "Approve" }).click();
    await toast(page, "Renewed Permit approved");
    await eventually(() => item.getByText("Approved", { exact: true }).isVisible()).toBe(true);
    await eventually(() => region(page, "Terms").getByText(day(newDate)).first().isVisible()).toBe(true);
    // The files become the permit's current files, together (the first archives what was current,
    // the others join it).
    for (const name of ["renewed-permit-full.pdf", "renewed-permit-page-2.pdf"])
      await eventually(() => region(page, "Attachments").getByText(name).isVisible()).toBe(true);
    const files = await (
      await page.request.get(`${BASE_URL}/api/permits/${permit.id}/attachments?include_archived=true`)
    ).text();
    expect(files).toContain("renewed-permit-full.pdf");
    expect(files).not.toContain("renewed-permit-scan.pdf");
    const detail = (await (
      await page.request.get(`${BASE_URL}/api/permits/${permit.id}`)
    ).json()) as PermitDetail;
    expect(detail.expiration_date).toBe(newDate);
    expect(detail.term_no).toBeGreaterThan(permit.term_no ?? 1);
    await eventually(() =>
      region(page, "Audit Trail")
        .getByText(/via request link/)
        .first()
        .isVisible(),
    ).toBe(true);
    await expect(
      region(page, "Audit Trail").getByText(new RegExp(CLERK.name)).first().isVisible(),
    ).resolves.toBe(true);
    await snap(page, "requests-card-approved-1280");

    await party.reload();
    await eventually(() =>
      party.getByRole("heading", { name: "Thank you — this request is complete" }).isVisible(),
    ).toBe(true);
    await snap(party, "request-link-approved-390");
  });

  it("reads the card on a phone, and as a client-user without the party's details", async () => {
    const phone = await signedIn(b, DEMO.companyAdmin, PHONE);
    await phone.goto(`${BASE_URL}/permits/${permit.id}`);
    await eventually(() =>
      requestItem(phone, "Renewed Permit").getByText("Approved", { exact: true }).isVisible(),
    ).toBe(true);
    await requestItem(phone, "Renewed Permit").scrollIntoViewIfNeeded();
    await snap(phone, "requests-card-approved-390", { viewport: true });
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await phone.getByRole("button", { name: "Request Document" }).click();
    const dialog = phone.getByRole("dialog", { name: "Request Document" });
    await dialog.getByLabel("Contact").waitFor();
    await snap(phone, "request-dialog-390", { viewport: true });
    await dialog.getByRole("button", { name: "Cancel" }).click();

    const client = await signedIn(b, DEMO.clientUser);
    await client.goto(`${BASE_URL}/permits/${permit.id}`);
    const item = requestItem(client, "Renewed Permit");
    await eventually(() => item.getByText("Approved", { exact: true }).isVisible()).toBe(true);
    await expect(item.getByText(CLERK.email).count()).resolves.toBe(0);
    await expect(item.getByText(CLERK.name).count()).resolves.toBe(0);
    await expect(item.getByRole("link").count()).resolves.toBe(0);
    await expect(client.getByRole("button", { name: "Request Document" }).count()).resolves.toBe(0);
    await snap(client, "requests-card-client-user-1280");
  });

  it("picks the saved contact for another document, then revokes it: the link says it was withdrawn", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await page.goto(`${BASE_URL}/permits/${permit.id}`);
    await page.getByRole("button", { name: "Request Document" }).click();
    const dialog = page.getByRole("dialog", { name: "Request Document" });
    await dialog.getByLabel("Contact").fill(CLERK.name.slice(0, 8));
    await page.getByRole("option", { name: new RegExp(CLERK.name) }).click();
    await eventually(() => dialog.getByLabel("E-mail").inputValue()).toBe(CLERK.email);
    await dialog.getByLabel("Document").click();
    await page.getByRole("option", { name: "Other" }).click();
    await dialog.getByRole("button", { name: "Send Request" }).click();
    await eventually(() => dialog.getByText("Say which document you need").isVisible()).toBe(true);
    await dialog.getByLabel("Title").fill("Traffic control plan approval");
    await dialog.getByRole("button", { name: "Send Request" }).click();
    await toast(page, `Request sent to ${CLERK.name}`);

    const link = await linkMailedTo(CLERK.email, [clerkLink]);
    const item = requestItem(page, "Traffic control plan approval");
    await eventually(() => item.getByText("Sent", { exact: true }).isVisible()).toBe(true);
    await item.getByRole("button", { name: "Revoke" }).click();
    const confirm = page.getByRole("dialog", { name: "Revoke Request" });
    await snap(page, "request-revoke-dialog-1280", { viewport: true });
    await confirm.getByRole("button", { name: "Revoke" }).click();
    await eventually(() => item.getByText("Revoked", { exact: true }).isVisible()).toBe(true);
    await snap(page, "requests-card-revoked-1280");

    const party = await b.newPage({ viewport: PHONE });
    await party.goto(link);
    await eventually(() =>
      party.getByRole("heading", { name: "This request was withdrawn" }).isVisible(),
    ).toBe(true);
    await snap(party, "request-link-revoked-390");
  });
});

describe("a bond rider from a surety agent", () => {
  it("asks for a rider on the bond's page; its approval is a ledger entry", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await page.goto(`${BASE_URL}/permits/${bond.id}`);
    await page.getByRole("button", { name: "Request Document" }).click();
    const dialog = page.getByRole("dialog", { name: "Request Document" });
    await expect(dialog.getByLabel("Amount").isChecked()).resolves.toBe(true);
    await expect(dialog.getByLabel("Effective Date").isChecked()).resolves.toBe(true);
    await snap(page, "request-dialog-bond-1280", { viewport: true });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await requestFrom(page, AGENT, {
      message: "The east wall was added to the contract: please send the rider.",
    });

    // The agent answers on a desktop.
    const party = await b.newPage({ viewport: DESKTOP });
    await party.goto(await linkMailedTo(AGENT.email));
    await eventually(() => party.getByRole("heading", { name: "Bond Rider" }).isVisible()).toBe(true);
    await snap(party, "request-link-rider-open-1280");
    await answer(party, pdf("rider-east-wall.pdf", "rider"), {
      Amount: "125000.00",
      "Effective Date": today,
    });
    await snap(party, "request-link-rider-submitted-1280");

    await page.reload();
    const item = requestItem(page, "Bond Rider");
    await eventually(() => item.getByText("Submitted", { exact: true }).isVisible()).toBe(true);
    await item.getByRole("button", { name: "Approve" }).click();
    await toast(page, "Bond Rider approved");
    await eventually(() => item.getByText("Approved", { exact: true }).isVisible()).toBe(true);
    const ledger = await (await page.request.get(`${BASE_URL}/api/bonds/${bond.id}/ledger`)).json();
    expect(JSON.stringify(ledger.entries)).toContain("rider");
    await eventually(() => region(page, "Bond Ledger").getByText(/Rider/).first().isVisible()).toBe(true);
    await snap(page, "requests-card-bond-approved-1280");
  });
});
