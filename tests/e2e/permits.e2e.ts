import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { BASE_URL, DEMO, DEMO_PASSWORD, PHONE, screenshot, signedIn, signIn, useBrowser } from "./support.ts";

const stamp = Date.now().toString(36);
const PERMIT_NAME = `E2E Grading ${stamp}`;
const BOND_NAME = `E2E Bond ${stamp}`;
const LAPTOP = { width: 1366, height: 768 };
const b = useBrowser({ viewport: LAPTOP });

/** Picks an option of an MUI select by the select's label. */
async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: option }).first().click();
}

const table = (page: Page) => page.getByRole("table", { name: "Permits" });
/** A project heading's link (a client heading also holds its packet's download link). */
const PROJECT_LINK = 'tbody th a[href^="/projects/"]';
const permitNames = async (page: Page) =>
  (await table(page).locator("tbody tr td:nth-child(2)").allTextContents()).map((s) => s.trim());

/** Waits until the list shows the answer to the URL's query (it keeps old rows while loading). */
async function settled(page: Page) {
  await expect.poll(() => page.getByRole("progressbar", { name: "Loading permits" }).count()).toBe(0);
}

async function filterByName(page: Page, text: string) {
  // One search box over number, name, agency and project (issue 14).
  await page.getByLabel("Search permits").fill(text);
  await page.waitForURL((url) => url.searchParams.get("q") === text);
  await settled(page);
}

describe("All Permits", () => {
  it("shows tiles, the collapsible charts, and client/project groups with dots and highlights", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    for (const tile of ["Total Permits", "In Review", "Active", "Closed", "Expiring Soon"]) {
      await expect
        // The tiles are buttons that filter the list (issue 14), named by their caption and count.
        .poll(
          () =>
            page
              .getByRole("button", { name: new RegExp(`^${tile}`) })
              .first()
              .isVisible(),
          {
            message: tile,
          },
        )
        .toBe(true);
    }
    await expect.poll(() => table(page).locator("tbody tr").count()).toBeGreaterThan(10);
    // Client header, then project header linking to the project dashboard with one dot per permit.
    const projectLink = table(page).locator(PROJECT_LINK).first();
    expect(await projectLink.getAttribute("href")).toMatch(/^\/projects\/[0-9a-f-]+\/dashboard$/);
    expect(await table(page).locator("[data-dot]").count()).toBeGreaterThan(0);
    expect(await table(page).locator('tr[data-urgency="expired"]').count()).toBeGreaterThan(0);
    expect(await table(page).locator('tr[data-urgency="expiring"]').count()).toBeGreaterThan(0);
    expect(await page.getByRole("columnheader", { name: "Company" }).count()).toBe(0);

    await page.getByRole("button", { name: "Show Charts" }).click();
    await expect.poll(() => page.getByText("Permits by Status").isVisible()).toBe(true);
    await expect.poll(() => page.getByText("Permits by Agency").isVisible()).toBe(true);
    await expect.poll(() => page.locator(".recharts-pie-sector").count()).toBeGreaterThan(0);
    expect(page.url()).toContain("charts=1");
    await screenshot(page, "permits-list-laptop");
    await page.getByRole("button", { name: "Hide Charts" }).click();
    await expect.poll(() => page.getByText("Permits by Status").isVisible()).toBe(false);
  });

  it("keeps filters, sort and page in the URL, so a view can be bookmarked", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await choose(page, "Type", "Bond / Guarantee");
    await page.waitForURL(/record_type=bond/);
    const types = async () => new Set(await table(page).locator("tbody td svg title").allTextContents());
    await expect.poll(types).toEqual(new Set(["Bond / Guarantee"]));
    await page.getByRole("button", { name: "Permit Name" }).click();
    await page.waitForURL(/sort=permit_name/);
    await page.getByRole("button", { name: "Permit Name" }).click();
    await page.waitForURL(/dir=desc/);
    await page.getByLabel("Show Non-Required").check();
    await page.waitForURL(/show_non_required=1/);
    await page.getByRole("button", { name: "Show Archived" }).click();
    await page.waitForURL(/show_archived=1/);
    await settled(page);
    const url = page.url();
    const names = await permitNames(page);

    const again = await b.newPage({ viewport: LAPTOP });
    await signIn(again, DEMO.companyAdmin, DEMO_PASSWORD);
    await again.waitForURL(/\/permits$/);
    await again.goto(url);
    await expect.poll(() => permitNames(again)).toEqual(names);
    expect(await again.getByRole("button", { name: "Hide Archived" }).isVisible()).toBe(true);
    expect(await again.getByLabel("Show Non-Required").isChecked()).toBe(true);
    expect(await again.getByRole("combobox", { name: "Type" }).textContent()).toContain("Bond / Guarantee");
  });

  it("pages through the list", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await page.getByRole("button", { name: "Go to page 2" }).click();
    await page.waitForURL(/page=2/);
    await expect.poll(() => page.getByText(/^51–/).isVisible()).toBe(true);
  });

  it("shows the phone layout without horizontal scrolling", async () => {
    const page = await signedIn(b, DEMO.companyAdmin, PHONE);
    await expect.poll(() => page.getByRole("article").count()).toBeGreaterThan(5);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, "permits-list-phone");
  });

  it("reads well in the dark theme", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await page.getByRole("button", { name: "Toggle light/dark theme" }).click();
    await expect.poll(() => table(page).locator("tbody tr").count()).toBeGreaterThan(10);
    await screenshot(page, "permits-list-dark");
    await page.getByRole("button", { name: "Toggle light/dark theme" }).click();
  });
});

describe("creating, finding, editing and deleting permits", () => {
  it("validates the form with the spec's messages", async () => {
    const page = await signedIn(b, DEMO.companyUser);
    await page.getByRole("link", { name: "+ New Permit" }).click();
    await page.waitForURL(/\/permits\/new$/);
    await choose(page, "Record Type", "Bond / Guarantee");
    await page.getByRole("button", { name: "Create Permit" }).click();
    for (const message of [
      "Project is required",
      "Permit Number is required",
      "Permit Name is required",
      "Agency is required",
      "Expiration Date is required",
      "Guarantee Type is required",
    ]) {
      await expect.poll(() => page.getByText(message).isVisible(), { message }).toBe(true);
    }
    await page.getByLabel("Bond Amount").fill("-10");
    await page.getByLabel("Start Date").fill("2030-02-01");
    await page.getByLabel("Expiration Date").fill("2030-01-01");
    await page.getByRole("button", { name: "Create Permit" }).click();
    await expect.poll(() => page.getByText("Bond amount cannot be negative").isVisible()).toBe(true);
    await expect
      .poll(() => page.getByText("Expiration Date cannot be before the Start Date").isVisible())
      .toBe(true);
    await screenshot(page, "permit-form-errors");
  });

  it("creates a permit with a file and a bond, then finds them by filter and sort", async () => {
    const page = await signedIn(b, DEMO.companyUser);

    await page.goto(`${BASE_URL}/permits/new`);
    await choose(page, "Project", /Civic Center|Clinic|Parking|Warehouse|Roadway|Campus/);
    await page.getByLabel("Permit Number").fill(`GR-${stamp}`);
    await page.getByLabel("Permit Name").fill(PERMIT_NAME);
    await page.getByLabel("Agency", { exact: true }).fill("Colorado");
    await page.getByRole("option", { name: "Colorado DOT" }).click();
    await page.getByLabel("Application Date").fill("2026-01-05");
    await page.getByLabel("Expiration Date").fill("2031-03-31");
    await page.locator('input[type="file"]').setInputFiles({
      name: `grading-${stamp}.txt`,
      mimeType: "text/plain",
      buffer: Buffer.from("grading plan"),
    });
    await expect.poll(() => page.getByText(`grading-${stamp}.txt`).isVisible()).toBe(true);
    await screenshot(page, "permit-form-create");
    await page.getByRole("button", { name: "Create Permit" }).click();
    // A new permit opens its own page (issue 14); the list is one step back.
    await page.waitForURL(/\/permits\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByText("Permit created.").isVisible()).toBe(true);
    await page.goto(`${BASE_URL}/permits`);

    await page.getByRole("link", { name: "+ New Permit" }).click();
    await choose(page, "Project", /Civic Center|Clinic|Parking|Warehouse|Roadway|Campus/);
    await page.getByLabel("Permit Number").fill(`BD-${stamp}`);
    await page.getByLabel("Permit Name").fill(BOND_NAME);
    await choose(page, "Record Type", "Bond / Guarantee");
    await page.getByLabel("Agency", { exact: true }).fill("Summit County Engineering");
    await page.getByLabel("Bond Amount").fill("250000");
    await page.getByLabel("Surety Company").fill("Travelers Bond");
    await page.getByLabel("Bond Number").fill(`SB-${stamp}`);
    await choose(page, "Guarantee Type", "Maintenance");
    await page.getByLabel("Required").uncheck();
    await page.getByLabel("Expiration Date").fill("2029-12-31");
    await page.getByRole("button", { name: "Create Permit" }).click();
    await page.waitForURL(/\/permits\/[0-9a-f-]{36}$/);
    await page.goto(`${BASE_URL}/permits`);
    await settled(page);

    // The bond was saved In Waiting (Required unticked): only Show Non-Required lists it.
    await filterByName(page, `E2E`);
    await expect.poll(() => permitNames(page)).toContain(PERMIT_NAME);
    expect(await permitNames(page)).not.toContain(BOND_NAME);
    await page.getByLabel("Show Non-Required").check();
    await expect.poll(() => permitNames(page)).toContain(BOND_NAME);

    await choose(page, "Type", "Bond / Guarantee");
    await expect.poll(() => permitNames(page)).toEqual([BOND_NAME]);
    await choose(page, "Type", "All Types");
    await filterByName(page, stamp);
    await page.getByRole("button", { name: "Permit Name" }).click();
    await expect.poll(() => permitNames(page)).toEqual([BOND_NAME, PERMIT_NAME]);
    await page.getByRole("button", { name: "Expires" }).click();
    await expect.poll(() => permitNames(page)).toEqual([BOND_NAME, PERMIT_NAME]);
    await page.getByRole("button", { name: "Expires" }).click();
    await expect.poll(() => permitNames(page)).toEqual([PERMIT_NAME, BOND_NAME]);

    // The chosen file went up with the permit.
    await page.getByRole("link", { name: `Details of GR-${stamp} ${PERMIT_NAME}` }).click();
    await page.waitForURL(/\/permits\/[0-9a-f-]+$/);
    await expect.poll(() => page.getByText(`grading-${stamp}.txt`).first().isVisible()).toBe(true);
  });

  it("edits a permit and shows the audit entries in the form", async () => {
    const page = await signedIn(b, DEMO.companyUser);
    await filterByName(page, PERMIT_NAME);
    await page.getByRole("link", { name: `Edit GR-${stamp} ${PERMIT_NAME}` }).click();
    await page.waitForURL(/\/permits\/[0-9a-f-]+\/edit$/);
    await expect.poll(() => page.getByLabel("Permit Name").inputValue()).toBe(PERMIT_NAME);
    expect(await page.getByLabel("Agency", { exact: true }).inputValue()).toBe("Colorado DOT");
    await page.getByLabel("Permit Name").fill(`${PERMIT_NAME} (revised)`);
    await page.getByLabel("Expiration Date").fill("2031-06-30");
    await page.getByRole("button", { name: "Update Permit" }).click();
    await page.waitForURL(/\/permits\/[0-9a-f-]+$/);
    await expect.poll(() => page.getByText("Permit updated.").isVisible()).toBe(true);

    await page.goto(`${page.url()}/edit`);
    const audit = page.getByRole("list", { name: "Audit Trail" });
    await expect
      .poll(() => audit.textContent())
      .toContain(`Update: Permit Name — ${PERMIT_NAME} → ${PERMIT_NAME} (revised)`);
    // In words (issue 25): dates as the screens show them.
    expect(await audit.textContent()).toContain("Update: Expiration Date — Mar 31, 2031 → Jun 30, 2031");
    expect(await audit.textContent()).toContain("Create");
    expect(await audit.textContent()).toContain("Sam Baker");
    await screenshot(page, "permit-form-edit-audit");
  });

  it("lets a company-user edit but not delete", async () => {
    const page = await signedIn(b, DEMO.companyUser);
    await filterByName(page, stamp);
    await expect.poll(() => page.getByRole("link", { name: /^Edit / }).count()).toBe(1);
    expect(await page.getByRole("button", { name: /^Delete / }).count()).toBe(0);
  });

  it("deletes a permit after the confirmation", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await filterByName(page, stamp);
    await page.getByRole("button", { name: `Delete GR-${stamp} ${PERMIT_NAME} (revised)` }).click();
    const dialog = page.getByRole("dialog");
    await expect.poll(() => dialog.textContent()).toContain("Are you sure you want to delete this permit?");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => permitNames(page)).toContain(`${PERMIT_NAME} (revised)`);

    await page.getByRole("button", { name: `Delete GR-${stamp} ${PERMIT_NAME} (revised)` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => page.getByText("Permit deleted.").isVisible()).toBe(true);
    // The bond (In Waiting) shows only with Show Non-Required: nothing else matches.
    await expect.poll(() => page.getByText("No permits match these filters.").isVisible()).toBe(true);
  });

  it("says 'Delete failed: ' and why when the delete is refused", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await filterByName(page, stamp);
    await page.getByLabel("Show Non-Required").check();
    await settled(page);
    await page.getByRole("button", { name: `Delete BD-${stamp} ${BOND_NAME}` }).click();
    // Someone else deletes it first.
    const list = await (
      await page.request.get(`${BASE_URL}/api/permits?show_non_required=1&q=${encodeURIComponent(BOND_NAME)}`)
    ).json();
    const id = list.groups[0].projects[0].permits[0].id as string;
    const gone = await page.request.delete(`${BASE_URL}/api/permits/${id}`, {
      headers: { "x-requested-with": "permitrack" },
    });
    expect(gone.status()).toBe(204);
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await expect
      .poll(() => page.getByRole("dialog").getByRole("alert").textContent())
      .toBe("Delete failed: Permit not found.");
    await screenshot(page, "permits-delete-failed");
  });

  it("preselects the project when opened from a project", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    const href = (await table(page).locator(PROJECT_LINK).first().getAttribute("href"))!;
    const projectName = (await table(page).locator(PROJECT_LINK).first().textContent())!.split(" · ")[0]!;
    await page.goto(`${BASE_URL}${href.replace("/dashboard", "/permits/new")}`);
    await expect
      .poll(() => page.getByRole("combobox", { name: "Project" }).textContent())
      .toContain(projectName);
  });
});

describe("roles", () => {
  it("shows a client-user only its client's permits, without New, Edit or Delete", async () => {
    const page = await signedIn(b, DEMO.clientUser);
    await expect.poll(() => table(page).locator("tbody tr").count()).toBeGreaterThan(3);
    const clientHeaders = await table(page)
      .locator("tbody th[scope=colgroup] .MuiTypography-subtitle1")
      .allTextContents();
    expect(new Set(clientHeaders)).toEqual(new Set(["City of Aurora"]));
    expect(await page.getByRole("link", { name: "+ New Permit" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: /^Edit / }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Delete / }).count()).toBe(0);
    expect(await page.getByRole("link", { name: /^Details of / }).count()).toBeGreaterThan(0);
    await screenshot(page, "permits-list-client-user");
  });

  it("shows a super-admin the Company column and asks for a company in the form", async () => {
    const page = await signedIn(b, DEMO.superAdmin);
    await expect.poll(() => page.getByRole("columnheader", { name: "Company" }).isVisible()).toBe(true);
    await page.getByRole("link", { name: "+ New Permit" }).click();
    await page.getByRole("button", { name: "Create Permit" }).click();
    await expect
      .poll(() => page.getByText("Company ID is missing. Please select a company.").isVisible())
      .toBe(true);
    await choose(page, "Company", "Bayline Civil Engineering");
    await expect.poll(() => page.getByRole("combobox", { name: "Project" }).isEnabled()).toBe(true);
    await screenshot(page, "permit-form-super-admin");
  });
});
