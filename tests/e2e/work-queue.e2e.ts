import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { BASE_URL, DEMO, PHONE, screenshot, signedIn, useBrowser } from "./support.ts";

/**
 * Issue 14: the All Permits list as a work queue (tiles as filters, the search box, Group by None
 * with a sort over the whole company, saved views), and the feedback around it.
 */
const DESKTOP = { width: 1280, height: 800 };
const b = useBrowser({ viewport: DESKTOP });
const run = Date.now().toString(36);

const table = (page: Page) => page.getByRole("table", { name: "Permits" });
/** A project heading's link (a client heading also holds its packet's download link). */
const PROJECT_LINK = 'tbody th a[href^="/projects/"]';
const rows = (page: Page) => table(page).locator("tbody tr.permit-row");

/** Waits until the rows shown answer the URL's query (the list keeps old rows while loading). */
async function settled(page: Page) {
  await expect
    .poll(() =>
      page
        .getByRole("region", { name: "Permits list" })
        .evaluate((el) => el.getAttribute("aria-busy") === "false" && !el.hasAttribute("data-stale")),
    )
    .toBe(true);
}

const tile = (page: Page, name: string) =>
  page.getByRole("group", { name: /^Summary/ }).getByRole("button", { name: new RegExp(`^${name}`) });

/** Cells of one column (by its header text) of the permit rows. */
async function column(page: Page, header: string): Promise<string[]> {
  const headers = (await table(page).locator("thead th").allTextContents()).map((s) => s.trim());
  const index = headers.indexOf(header);
  expect(index, `column ${header}`).toBeGreaterThanOrEqual(0);
  return (
    await rows(page)
      .locator(`td:nth-child(${index + 1})`)
      .allTextContents()
  ).map((s) => s.trim());
}

const asDate = (shown: string) => (shown === "—" ? null : Date.parse(`${shown} UTC`));

describe("tiles as filters", () => {
  it("shows each tile's permits when it is clicked, and all of them again from Total Permits", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await expect.poll(() => rows(page).count()).toBeGreaterThan(10);

    await tile(page, "Expiring Soon").click();
    await page.waitForURL(/tile=expiring_soon/);
    await settled(page);
    expect(await tile(page, "Expiring Soon").getAttribute("aria-pressed")).toBe("true");
    const expiring = await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-urgency")));
    expect(expiring.length).toBeGreaterThan(0);
    expect(new Set(expiring)).toEqual(new Set(["expiring"]));
    await screenshot(page, "wq-tile-expiring-1280");

    await tile(page, "Expired").click();
    await page.waitForURL(/tile=expired/);
    await settled(page);
    const expired = await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-urgency")));
    expect(expired.length).toBeGreaterThan(0);
    expect(new Set(expired)).toEqual(new Set(["expired"]));

    await tile(page, "Active").click();
    await page.waitForURL(/tile=active/);
    await settled(page);
    expect((await column(page, "Expires")).every((d) => d !== "—")).toBe(true);

    await tile(page, "Closed").click();
    await page.waitForURL(/tile=closed/);
    await settled(page);
    // A second click on the chosen tile, or Total Permits, shows everything again.
    await tile(page, "Closed").click();
    await page.waitForURL((url) => !url.searchParams.has("tile"));
    await tile(page, "In Review").click();
    await page.waitForURL(/tile=in_review/);
    await tile(page, "Total Permits").click();
    await page.waitForURL((url) => !url.searchParams.has("tile"));
    expect(await tile(page, "Total Permits").getAttribute("aria-pressed")).toBe("true");
  });

  it("counts only a client-user's own clients on the tiles and in the filtered rows", async () => {
    const page = await signedIn(b, DEMO.clientUser);
    await tile(page, "Expired").click();
    await page.waitForURL(/tile=expired/);
    await settled(page);
    const count = Number((await tile(page, "Expired").textContent())?.replace(/\D/g, ""));
    const shown = await page.getByText(/^\d+–\d+ of [\d,]+$/).textContent();
    expect(Number(shown?.split(" of ")[1]?.replace(/,/g, ""))).toBe(count);
    // The client-user's groups are its one client's.
    const clients = await table(page)
      .locator("tbody th[scope=colgroup] .MuiTypography-subtitle1")
      .allTextContents();
    expect(new Set(clients).size).toBe(1);
  });
});

describe("search, filters and grouping", () => {
  it("finds a permit by its number, and every permit of a project by the project's name", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await expect.poll(() => rows(page).count()).toBeGreaterThan(10);
    const number = (await column(page, "Permit #"))[7]!;
    await page.getByLabel("Search permits").fill(number);
    await page.waitForURL((url) => url.searchParams.get("q") === number);
    await settled(page);
    expect(await column(page, "Permit #")).toEqual([number]);

    const project = (await table(page).locator(PROJECT_LINK).first().textContent())!.split(" · ")[0]!.trim();
    await page.getByLabel("Search permits").fill(project);
    await page.waitForURL((url) => url.searchParams.get("q") === project);
    await settled(page);
    const projects = await table(page).locator(PROJECT_LINK).allTextContents();
    expect(projects.length).toBeGreaterThan(0);
    expect(projects.every((p) => p.includes(project))).toBe(true);
    await screenshot(page, "wq-search-project-1280");
  });

  it("with Group by None sorts the whole company by expiration, across clients, projects and pages", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await page.getByRole("combobox", { name: "Group by" }).click();
    await page.getByRole("option", { name: "None" }).click();
    await page.waitForURL(/group=none/);
    await page.getByRole("button", { name: "Expires" }).click();
    await page.waitForURL(/sort=expiration_date/);
    await settled(page);
    // One flat list: no client or project header rows; each row names its project instead.
    expect(await table(page).locator("tbody th").count()).toBe(0);
    const firstPage = (await column(page, "Expires")).map(asDate);
    expect(firstPage.length).toBe(50);
    const dated = firstPage.filter((d): d is number => d !== null);
    expect(dated).toEqual([...dated].sort((x, y) => x - y));
    const projects = await rows(page).locator(".permit-project-link").allTextContents();
    expect(projects.length).toBe(50);
    expect(new Set(projects).size).toBeGreaterThan(1);
    const container = table(page).locator("xpath=..");
    expect(await container.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, "wq-group-none-1280");

    await page.getByRole("button", { name: "Go to page 2" }).click();
    await page.waitForURL(/page=2/);
    await settled(page);
    const secondPage = (await column(page, "Expires")).map(asDate).filter((d): d is number => d !== null);
    if (secondPage.length && dated.length) expect(secondPage[0]!).toBeGreaterThanOrEqual(dated.at(-1)!);
  });

  it("filters by status, project and an expiration range, all kept in the URL", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await page.getByRole("combobox", { name: "Project" }).click();
    const option = page.getByRole("option").first();
    const projectName = (await option.textContent())!.split(" · ")[0]!;
    await option.click();
    await page.waitForURL(/project_id=/);
    await settled(page);
    const projects = await table(page).locator(PROJECT_LINK).allTextContents();
    expect(projects.length).toBeGreaterThan(0);
    expect(projects.every((p) => p.startsWith(projectName))).toBe(true);

    await page.getByLabel("Expires from").fill("2020-01-01");
    await page.waitForURL(/expires_from=2020-01-01/);
    await page.getByLabel("Expires to").fill("2099-12-31");
    await page.waitForURL(/expires_to=2099-12-31/);
    await settled(page);
    expect((await column(page, "Expires")).every((d) => d !== "—")).toBe(true);

    const url = page.url();
    const again = await signedIn(b, DEMO.companyAdmin);
    await again.goto(url);
    await settled(again);
    expect(await again.getByLabel("Expires from").inputValue()).toBe("2020-01-01");
    // The Project picker names its choice once the filter options arrive (they load after the rows).
    await expect
      .poll(() => again.getByRole("combobox", { name: "Project" }).inputValue(), { timeout: 10_000 })
      .toContain(projectName);
    await again.getByRole("button", { name: "Clear filters" }).click();
    await again.waitForURL((u) => !u.searchParams.has("project_id") && !u.searchParams.has("expires_from"));
  });
});

describe("on a phone", () => {
  it("filters by a tile, folds the other filters behind 'Filters', and shows the flat list as cards naming their project", async () => {
    const page = await signedIn(b, DEMO.companyAdmin, PHONE);
    await expect.poll(() => page.getByRole("article").count()).toBeGreaterThan(5);
    expect(await page.getByRole("combobox", { name: "Group by" }).count()).toBe(0);
    await page.getByRole("button", { name: "Expiring in 30 days" }).click();
    await page.waitForURL(/tile=expiring_soon/);
    await settled(page);
    const cards = page.getByRole("article");
    await expect.poll(() => cards.count()).toBeGreaterThan(0);
    const urgencies = await cards.evaluateAll((els) => els.map((el) => el.getAttribute("data-urgency")));
    expect(new Set(urgencies)).toEqual(new Set(["expiring"]));
    expect(await cards.first().locator(".permit-project-link").count()).toBe(1);
    // The view set a grouping, so 'Filters' says one of the folded filters is in use, and opens them.
    await page.getByRole("button", { name: "Filters (1)" }).click();
    await expect.poll(() => page.getByRole("combobox", { name: "Group by" }).isVisible()).toBe(true);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await screenshot(page, "wq-phone-expiring-390");
  });
});

describe("saved views", () => {
  it("saves the current filters under a name, lists the view beside the filters for its owner only, and applies it", async () => {
    const name = `Expiring bonds ${run}`;
    const page = await signedIn(b, DEMO.companyUser);
    // The built-in view first.
    await page.getByRole("button", { name: "Expiring in 30 days" }).click();
    await page.waitForURL(/tile=expiring_soon/);
    expect(new URL(page.url()).searchParams.get("group")).toBe("none");
    expect(new URL(page.url()).searchParams.get("sort")).toBe("expiration_date");
    await settled(page);
    expect(await page.getByRole("button", { name: "Expiring in 30 days" }).getAttribute("aria-pressed")).toBe(
      "true",
    );

    await page.getByRole("combobox", { name: "Type" }).click();
    await page.getByRole("option", { name: "Bond / Guarantee" }).click();
    await page.waitForURL(/record_type=bond/);
    await page.getByRole("button", { name: "Save view" }).click();
    const dialog = page.getByRole("dialog", { name: "Save view" });
    await dialog.getByLabel("View name").fill(name);
    await screenshot(page, "wq-save-view-dialog-1280");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => page.getByRole("button", { name }).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name }).getAttribute("aria-pressed")).toBe("true");

    // From the default view, the saved one is a click away, after a reload too.
    await page.goto(`${BASE_URL}/permits`);
    await expect.poll(() => page.getByRole("button", { name }).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name }).getAttribute("aria-pressed")).toBe("false");
    await page.getByRole("button", { name }).click();
    await page.waitForURL(/record_type=bond/);
    const params = new URL(page.url()).searchParams;
    expect([params.get("tile"), params.get("group"), params.get("sort")]).toEqual([
      "expiring_soon",
      "none",
      "expiration_date",
    ]);
    await settled(page);
    const types = await rows(page).locator("td svg title").allTextContents();
    expect(types.every((t) => t === "Bond / Guarantee")).toBe(true);
    await screenshot(page, "wq-saved-view-1280");

    // Nobody else sees it: another user of the same company.
    const admin = await signedIn(b, DEMO.companyAdmin);
    await expect.poll(() => admin.getByRole("button", { name: "Save view" }).isVisible()).toBe(true);
    expect(await admin.getByRole("button", { name }).count()).toBe(0);

    // Its owner deletes it (the chip's delete key).
    await page.getByRole("button", { name }).focus();
    await page.keyboard.press("Delete");
    await expect.poll(() => page.getByRole("button", { name }).count()).toBe(0);
  });
});

describe("feedback", () => {
  it("opens a new permit's page after Create Permit, and asks before leaving an edited form", async () => {
    const page = await signedIn(b, DEMO.companyUser);
    await page.getByRole("link", { name: "+ New Permit" }).click();
    await page.waitForURL(/\/permits\/new$/);
    await page.getByLabel("Permit Number").fill(`WQ-${run}`);

    // Cancel with changes asks; Stay keeps the form as it was.
    await page.getByRole("button", { name: "Cancel" }).click();
    const ask = page.getByRole("dialog", { name: "Leave without saving?" });
    await expect.poll(() => ask.isVisible()).toBe(true);
    await screenshot(page, "wq-unsaved-changes-1280");
    await ask.getByRole("button", { name: "Stay on this page" }).click();
    await expect.poll(() => ask.count()).toBe(0);
    expect(await page.getByLabel("Permit Number").inputValue()).toBe(`WQ-${run}`);
    // A link in the nav asks too.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Permits" }).click();
    await expect.poll(() => ask.isVisible()).toBe(true);
    await ask.getByRole("button", { name: "Stay on this page" }).click();
    expect(page.url()).toMatch(/\/permits\/new$/);

    await page.getByRole("combobox", { name: "Project" }).click();
    await page.locator('[role="option"]:not([aria-disabled="true"])').first().click();
    await page.getByLabel("Permit Name").fill(`Work queue permit ${run}`);
    await page.getByRole("combobox", { name: "Agency" }).fill("City of Denver");
    await page.getByLabel("Expiration Date").fill("2031-05-01");
    await page.getByRole("button", { name: "Create Permit" }).click();
    await page.waitForURL(/\/permits\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByText(`Work queue permit ${run}`).first().isVisible()).toBe(true);
    // Leaving a saved form asks nothing.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Permits" }).click();
    await page.waitForURL(/\/permits$/);
  });

  it("shows one toast at a time: a new message replaces the one on screen", async () => {
    const page = await signedIn(b, DEMO.companyUser);
    const name = `Toast view ${run}`;
    await page.getByRole("button", { name: "Save view" }).click();
    await page.getByRole("dialog", { name: "Save view" }).getByLabel("View name").fill(name);
    await page.getByRole("dialog", { name: "Save view" }).getByRole("button", { name: "Save" }).click();
    await expect.poll(() => page.getByRole("alert").filter({ hasText: "View saved." }).count()).toBe(1);
    await page.getByRole("button", { name }).focus();
    await page.keyboard.press("Delete");
    await expect.poll(() => page.getByRole("alert").filter({ hasText: "View deleted." }).count()).toBe(1);
    // The first message is gone at once, not queued behind or standing beside the second.
    expect(await page.getByRole("alert").filter({ hasText: "View saved." }).count()).toBe(0);
  });
});

describe("keyboard and layout", () => {
  it("shows a visible focus ring on the sortable headers and the tiles", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await expect.poll(() => rows(page).count()).toBeGreaterThan(10);
    const header = page.getByRole("button", { name: "Permit #" });
    await page.getByLabel("Search permits").focus();
    // Tab until the header has the focus, as a keyboard user would.
    for (let i = 0; i < 60 && !(await header.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press("Tab");
    }
    expect(await header.evaluate((el) => el === document.activeElement)).toBe(true);
    const ring = await header.evaluate((el) => {
      const style = getComputedStyle(el);
      return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
    });
    expect(ring.style).not.toBe("none");
    expect(ring.width).toBeGreaterThanOrEqual(2);
    await screenshot(page, "wq-focus-sort-header-1280");
  });

  it("keeps a super-admin's row actions on one line inside the table at 1280 px", async () => {
    const page = await signedIn(b, DEMO.superAdmin);
    await expect.poll(() => rows(page).count()).toBeGreaterThan(10);
    const container = table(page).locator("xpath=..");
    const overflow = await container.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const tops = await rows(page)
      .first()
      .locator("td:last-child a, td:last-child button")
      .evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
    expect(tops.length).toBe(3);
    expect(new Set(tops).size).toBe(1);
    await screenshot(page, "wq-super-admin-list-1280");
  });
});
