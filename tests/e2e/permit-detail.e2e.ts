import fs from "node:fs";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../shared/domain/dates.ts";
import { PERMIT_INPUT_FIELDS, type PermitDetail, type PermitList } from "../../shared/schemas/permits.ts";
import {
  BASE_URL,
  DEMO,
  DEMO_PASSWORD,
  eventually,
  PHONE,
  shot,
  signedIn,
  signIn,
  useBrowser,
  recordApiRequests,
} from "./support.ts";

const b = useBrowser();
const stamp = Date.now().toString(36);
const INTERNAL = `Internal: fee dispute with the city ${stamp}`;
const VISIBLE = `Inspection passed, certificate to follow ${stamp}`;
const FIRST_FILE = `site-plan-${stamp}.txt`;
const SECOND_FILE = `Straße plan ✓ ${stamp}.txt`;
const GRANTOR = "https://permits.example.gov/bonds/42";

const region = (page: Page, name: string) => page.getByRole("region", { name });

async function upload(page: Page, name: string, content: string) {
  const [chooser] = await Promise.all([
    page.waitForEvent("filechooser"),
    page.getByRole("button", { name: "Upload File" }).click(),
  ]);
  await chooser.setFiles({ name, mimeType: "text/plain", buffer: Buffer.from(content) });
  await eventually(() => page.getByText("File uploaded.").isVisible()).toBe(true);
}

async function download(page: Page, filename: string) {
  const [file] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: filename, exact: true }).click(),
  ]);
  return { name: file.suggestedFilename(), content: fs.readFileSync((await file.path())!, "utf8") };
}

// A permit of the client-user's client, so that both sides of the comment rules can be seen. It is
// this spec's own: the client's first permit can be one that a spec running beside this one made
// (and is renewing or extending) while these tests read it.
let permitId = "";
beforeAll(async () => {
  const page = await b.newPage();
  await signIn(page, DEMO.clientUser, DEMO_PASSWORD);
  await page.waitForURL(/\/permits$/);
  const seen = (await (
    await page.request.get(`${BASE_URL}/api/permits?group=none&page_size=1`)
  ).json()) as PermitList;
  const projectId = seen.items[0]!.project!.id;
  await page.context().close();

  const admin = await signedIn(b, DEMO.companyAdmin);
  const me = await (await admin.request.get(`${BASE_URL}/api/me`)).json();
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: me.company?.timeZone ?? "UTC" }).format(
    new Date(),
  );
  const res = await admin.request.post(`${BASE_URL}/api/permits`, {
    headers: { "x-requested-with": "permitrack" },
    data: {
      permit_number: `PD-${stamp}`.toUpperCase(),
      permit_name: `Permit detail ${stamp}`,
      record_type: "permit",
      agency: "City of Boulder",
      project_id: projectId,
      issue_date: addDays(today, -200),
      expiration_date: addDays(today, 90),
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  permitId = ((await res.json()) as PermitDetail).id;
  await admin.context().close();
});

describe("permit detail as staff", () => {
  it("shows loading text, then the permit with its sections and actions", async () => {
    const page = await signedIn(b, DEMO.companyUser);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/permits/${permitId}`, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${BASE_URL}/permits/${permitId}`);
    await eventually(() => page.getByText("Loading...").isVisible()).toBe(true);
    release();

    await eventually(() => page.getByRole("link", { name: "Edit Permit" }).isVisible()).toBe(true);
    for (const name of [
      "Project Info",
      "Agency Info",
      "Timeline",
      "Attachments",
      "Comments & Notes",
      "Audit Trail",
      "Reminders",
    ]) {
      expect(await region(page, name).isVisible(), name).toBe(true);
    }
    // The card shows what the server holds for this permit: the empty state, or one row per
    // delivery (another spec's reminder run may have sent some for the first permit meanwhile).
    const reminders = await page.request.get(`${BASE_URL}/api/permits/${permitId}/reminders`);
    expect(reminders.status()).toBe(200);
    const sent = ((await reminders.json()) as { deliveries: unknown[] }).deliveries.length;
    const card = region(page, "Reminders");
    await expect
      .poll(() =>
        sent === 0
          ? card.getByText("No reminders sent yet.").isVisible()
          : card.getByRole("list", { name: "Reminders" }).getByRole("listitem").count(),
      )
      .toBe(sent === 0 ? true : sent);
    expect(await page.getByRole("link", { name: "Back to Permits" }).isVisible()).toBe(true);
    const status = await page.getByLabel(/^Status: /).textContent();
    expect(["Required", "In Waiting", "Pending", "Expired", "N/A"]).toContain(status);
  });

  it("adds an internal and a visible comment; empty text is ignored", async () => {
    const page = await signedIn(b, DEMO.companyUser);
    await page.goto(`${BASE_URL}/permits/${permitId}`);
    const comments = region(page, "Comments & Notes");
    const box = comments.getByLabel("Add a comment");
    await box.fill("    ");
    expect(await comments.getByRole("button", { name: "Add Comment" }).isDisabled()).toBe(true);

    await box.fill(`  ${INTERNAL}  `);
    await comments.getByLabel("Internal", { exact: true }).check();
    const requests = recordApiRequests(page);
    await comments.getByRole("button", { name: "Add Comment" }).click();
    await eventually(() => page.getByText("Comment added.").isVisible()).toBe(true);
    await eventually(() => comments.getByText(INTERNAL, { exact: true }).isVisible()).toBe(true);
    // The answer is the comment: neither the comments nor the permit are fetched again.
    const sent = await requests.stop();
    expect(sent).toContain(`POST /api/permits/${permitId}/comments`);
    expect(sent).not.toContain(`GET /api/permits/${permitId}`);
    expect(sent).not.toContain(`GET /api/permits/${permitId}/comments`);
    expect(await box.inputValue()).toBe("");
    expect(await comments.getByLabel("Internal", { exact: true }).isChecked()).toBe(false);

    await box.fill(VISIBLE);
    await comments.getByRole("button", { name: "Add Comment" }).click();
    await eventually(() => comments.getByText(VISIBLE, { exact: true }).isVisible()).toBe(true);
    // the internal one is marked, the visible one is not
    const items = comments.getByRole("listitem");
    const internalItem = items.filter({ hasText: INTERNAL });
    const visibleItem = items.filter({ hasText: VISIBLE });
    expect(await internalItem.getByText("Internal", { exact: true }).count()).toBe(1);
    expect(await visibleItem.getByText("Internal", { exact: true }).count()).toBe(0);

    await eventually(() => region(page, "Audit Trail").getByText(INTERNAL).isVisible()).toBe(true);
  });

  it("uploads and downloads a file; a second upload archives the first, which stays downloadable", async () => {
    const page = await signedIn(b, DEMO.companyUser);
    await page.goto(`${BASE_URL}/permits/${permitId}`);
    const files = region(page, "Attachments");

    await upload(page, FIRST_FILE, "first version");
    await expect
      .poll(() => files.getByRole("link", { name: FIRST_FILE, exact: true }).isVisible())
      .toBe(true);
    expect(await download(page, FIRST_FILE)).toEqual({ name: FIRST_FILE, content: "first version" });

    await upload(page, SECOND_FILE, "second version, ünïcödé");
    await expect
      .poll(() => files.getByRole("link", { name: SECOND_FILE, exact: true }).isVisible())
      .toBe(true);
    expect(await files.getByRole("link", { name: FIRST_FILE, exact: true }).count()).toBe(0);
    expect(await download(page, SECOND_FILE)).toEqual({
      name: SECOND_FILE,
      content: "second version, ünïcödé",
    });

    await files.getByLabel("Show archived").check();
    const archivedRow = files.getByRole("listitem").filter({ hasText: FIRST_FILE });
    await eventually(() => archivedRow.getByText("Archived").isVisible()).toBe(true);
    expect(await download(page, FIRST_FILE)).toEqual({ name: FIRST_FILE, content: "first version" });

    const audit = region(page, "Audit Trail");
    await expect
      .poll(() => audit.getByRole("row").filter({ hasText: SECOND_FILE }).getByText("Upload").isVisible())
      .toBe(true);
    expect(
      await audit.getByRole("row").filter({ hasText: FIRST_FILE }).filter({ hasText: "Archive" }).count(),
    ).toBe(1);
    await shot(page, "permit-detail-laptop");
  });

  it("shows a bond's details and opens the grantor link in a new tab", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    // A bond whose dates pass the form's rules (some demo rows start after they expire).
    const bonds = (await (
      await page.request.get(`${BASE_URL}/api/permits?record_type=bond&page_size=100`)
    ).json()) as PermitList;
    const bondId = bonds.groups
      .flatMap((g) => g.projects.flatMap((p) => p.permits))
      .find((p) => p.start_date && p.expiration_date && p.start_date <= p.expiration_date)!.id;
    const detail = (await (
      await page.request.get(`${BASE_URL}/api/permits/${bondId}`)
    ).json()) as PermitDetail;
    // Save it back through the permit form's API with a grantor link (an update the audit trail records).
    const input: Record<string, unknown> = Object.fromEntries(
      PERMIT_INPUT_FIELDS.map((f) => [f, (detail as unknown as Record<string, unknown>)[f] ?? null]),
    );
    const put = await page.request.put(`${BASE_URL}/api/permits/${bondId}`, {
      headers: { "x-requested-with": "permitrack" },
      data: { ...input, is_required: detail.status === "Required", grantor_link: GRANTOR },
    });
    expect(put.status(), await put.text()).toBe(200);

    await page.goto(`${BASE_URL}/permits/${bondId}`);
    const bond = region(page, "Bond Details");
    await eventually(() => bond.isVisible()).toBe(true);
    if (detail.bond_number) expect(await bond.getByText(detail.bond_number).isVisible()).toBe(true);
    const link = region(page, "Agency Info").getByRole("link", { name: /permits\.example\.gov/ });
    expect(await link.getAttribute("href")).toBe(GRANTOR);
    expect(await link.getAttribute("target")).toBe("_blank");
    expect(await link.getAttribute("rel")).toContain("noopener");
    await eventually(() => region(page, "Audit Trail").getByText(GRANTOR).isVisible()).toBe(true);
    await shot(page, "permit-detail-bond");
  });

  it("fits a phone screen", async () => {
    const page = await signedIn(b, DEMO.companyUser, PHONE);
    await page.goto(`${BASE_URL}/permits/${permitId}`);
    await eventually(() => region(page, "Audit Trail").getByRole("listitem").first().isVisible()).toBe(true);
    await shot(page, "permit-detail-phone");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  it("answers an unknown permit with the error box", async () => {
    const page = await signedIn(b, DEMO.companyUser);
    await page.goto(`${BASE_URL}/permits/00000000-0000-4000-8000-000000000000`);
    await eventually(() => page.getByRole("alert").textContent()).toContain("Permit not found.");
    await page.goto(`${BASE_URL}/permits/not-an-id`);
    await eventually(() => page.getByRole("alert").textContent()).toContain("Permit not found.");
    await page.getByRole("link", { name: "Back to Permits" }).click();
    await page.waitForURL(/\/permits$/);
  });
});

describe("permit detail as a client-user", () => {
  it("shows no internal comments, no Edit Permit, no upload, and can add a visible comment", async () => {
    const page = await signedIn(b, DEMO.clientUser);
    await page.goto(`${BASE_URL}/permits/${permitId}`);
    const comments = region(page, "Comments & Notes");
    await eventually(() => comments.getByText(VISIBLE, { exact: true }).isVisible()).toBe(true);
    expect(await page.getByText(INTERNAL).count()).toBe(0);
    expect(await page.getByText("Edit Permit").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Upload File" }).count()).toBe(0);
    expect(await comments.getByLabel("Internal", { exact: true }).count()).toBe(0);
    expect(await region(page, "Reminders").count()).toBe(0);
    // the files are there to download
    await expect
      .poll(() =>
        region(page, "Attachments").getByRole("link", { name: SECOND_FILE, exact: true }).isVisible(),
      )
      .toBe(true);

    await comments.getByLabel("Add a comment").fill(`Client question ${stamp}`);
    await comments.getByRole("button", { name: "Add Comment" }).click();
    await eventually(() => comments.getByText(`Client question ${stamp}`).isVisible()).toBe(true);
    expect(await page.getByText(INTERNAL).count()).toBe(0);
    await shot(page, "permit-detail-client-user");
  });
});
