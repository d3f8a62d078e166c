import fs from "node:fs";
import type { Download, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../shared/domain/dates.ts";
import type { BondList, SuretyList } from "../../shared/schemas/bonds.ts";
import type { PermitList } from "../../shared/schemas/permits.ts";
import {
  BASE_URL,
  DEMO,
  dismissToasts,
  eventually,
  followNavLink,
  PHONE,
  recordApiRequests,
  shot,
  signedIn,
  toast,
  useBrowser,
  viewportShot,
} from "./support.ts";

// The bond ledger in the browser (issue 12): Surety Admin; a bond created with a surety typed free,
// a rider, a 50 % reduction, the maintenance bond, collateral, the release; exposure by surety on the
// Bonds page before and after, its CSV export; a client-user's view without collateral or limits.

const stamp = Date.now().toString(36);
const DESKTOP = { width: 1280, height: 800 };
const b = useBrowser({ viewport: DESKTOP });
const CSRF = { "x-requested-with": "permitrack" };
const SURETY = `Free Surety ${stamp}`;
// Not "E2E …": the permits spec finds its own records by that prefix.
const BOND_NAME = `Ledger Bond ${stamp}`;
const BOND_NUMBER = `PB-${stamp}`.toUpperCase();

async function noSidewaysScroll(page: Page) {
  await eventually(() =>
    page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
}

/** A table fits its box at 1280 px: nothing of it is clipped or scrolled sideways. */
async function fitsItsBox(page: Page, table: string) {
  const hidden = await page
    .getByRole("table", { name: table, exact: true })
    .first()
    .evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth);
  expect(hidden, `${table} is clipped by ${hidden} px`).toBeLessThanOrEqual(0);
}

const region = (page: Page, name: string) => page.getByRole("region", { name, exact: true });
const money = (n: number) =>
  new Intl.NumberFormat(undefined, { style: "currency", currency: "USD" }).format(n);

async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: option }).first().click();
}

async function textOf(download: Download): Promise<string> {
  return fs.readFileSync((await download.path())!, "utf8");
}

/** The record's status chips: one per record (issue 25). */
const statusChips = (page: Page) => page.locator("[data-status-chip]");

/** The bond's page speaks bond: Edit Bond, one status chip, no Inspections card, no Permit # column. */
async function speaksBond(page: Page, status: string) {
  await eventually(() => statusChips(page).first().textContent()).toBe(status);
  await expect(statusChips(page).count()).resolves.toBe(1);
  await expect(page.getByRole("link", { name: "Edit Bond" }).count()).resolves.toBe(1);
  await expect(page.getByRole("link", { name: "Edit Permit" }).count()).resolves.toBe(0);
  await eventually(() => region(page, "Terms").isVisible()).toBe(true);
  await expect(region(page, "Inspections").count()).resolves.toBe(0);
  await expect(region(page, "Terms").getByText("Permit #").count()).resolves.toBe(0);
}

/** The Bonds page's row of a surety in 'Exposure by Surety'. */
const suretyRow = (page: Page, name: string) =>
  page.getByRole("table", { name: "Exposure by surety" }).getByRole("row").filter({ hasText: name });

/** Waits until the list shows the answer to the URL's query (it keeps old rows while loading). */
async function settled(page: Page) {
  await eventually(() =>
    page
      .getByRole("region", { name: "Bonds list" })
      .evaluate((el) => el.getAttribute("aria-busy") === "false" && !el.hasAttribute("data-stale")),
  ).toBe(true);
}

let today = "";
let projectName = "";
let bondId = "";
let maintenanceId = "";

beforeAll(async () => {
  // A project of the client-user's client, so the client-user sees the bond too.
  const client = await signedIn(b, DEMO.clientUser);
  const seen = (await (
    await client.request.get(`${BASE_URL}/api/permits?group=none&page_size=1`)
  ).json()) as PermitList;
  projectName = seen.items[0]!.project!.name;
  await client.context().close();

  const admin = await signedIn(b, DEMO.companyAdmin);
  const me = await (await admin.request.get(`${BASE_URL}/api/me`)).json();
  today = new Intl.DateTimeFormat("en-CA", { timeZone: me.company?.timeZone ?? "UTC" }).format(new Date());
  await admin.context().close();
});

describe("Surety Admin", () => {
  it("adds, edits and deletes a surety in the drawer; other roles are denied", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await followNavLink(page, "Surety Admin");
    await page.waitForURL(/\/admin\/sureties$/);
    await eventually(() => page.getByRole("heading", { name: "Surety Admin", level: 1 }).isVisible()).toBe(
      true,
    );

    const name = `Ridge Surety ${stamp}`;
    await page.getByRole("button", { name: "Add Surety" }).click();
    await page.waitForURL(/\/admin\/sureties\/new$/);
    const drawer = page.getByRole("dialog", { name: "Add Surety" });
    await drawer.getByLabel("Name").fill(name);
    await drawer.getByLabel("Contact").fill("Pat Quinn");
    await drawer.getByLabel("Phone").fill("(303) 555-0199");
    await drawer.getByLabel("E-mail").fill("pat.quinn@ridge-surety.example");
    await drawer.getByLabel("Single Limit").fill("2,000,000");
    await drawer.getByLabel("Aggregate Limit").fill("1000000");
    await drawer.getByRole("button", { name: "Save Surety" }).click();
    // The schema's rule, on its field, before anything is sent.
    await eventually(() =>
      drawer.getByText("Single Limit cannot be more than the Aggregate Limit").isVisible(),
    ).toBe(true);
    await drawer.getByLabel("Single Limit").fill("500000");
    await viewportShot(page, "bonds-surety-drawer-1280");
    await drawer.getByRole("button", { name: "Save Surety" }).click();
    await toast(page, "Surety saved.");
    await page.waitForURL(/\/admin\/sureties$/);
    const table = page.getByRole("table", { name: "Sureties" });
    const row = table.getByRole("row").filter({ hasText: name });
    await eventually(() => row.getByText(money(1_000_000)).isVisible()).toBe(true);
    await expect(row.getByText("pat.quinn@ridge-surety.example").isVisible()).resolves.toBe(true);

    // Edit: the drawer opens on the surety; a new aggregate limit shows in the list.
    await row.getByRole("link", { name: `Edit ${name}` }).click();
    await page.waitForURL(/\/admin\/sureties\/[0-9a-f-]{36}\/edit$/);
    const edit = page.getByRole("dialog", { name: "Edit Surety" });
    await eventually(() => edit.getByLabel("Aggregate Limit").inputValue()).toBe("1000000.00");
    await edit.getByLabel("Aggregate Limit").fill("3000000");
    await edit.getByRole("button", { name: "Save Surety" }).click();
    await toast(page, "Surety saved.");
    await eventually(() => row.getByText(money(3_000_000)).isVisible()).toBe(true);
    await fitsItsBox(page, "Sureties");
    await shot(page, "bonds-surety-admin-1280");

    const phone = await signedIn(b, DEMO.companyAdmin, PHONE);
    await phone.goto(`${BASE_URL}/admin/sureties`);
    await eventually(() => phone.getByRole("list", { name: "Sureties" }).isVisible()).toBe(true);
    await noSidewaysScroll(phone);
    await shot(phone, "bonds-surety-admin-390");

    // Delete, with the confirmation.
    await row.getByRole("button", { name: `Delete ${name}` }).click();
    const confirm = page.getByRole("dialog", { name: "Delete surety" });
    await expect(confirm.getByText(`Delete the surety "${name}"?`).isVisible()).resolves.toBe(true);
    await confirm.getByRole("button", { name: "Delete" }).click();
    await toast(page, "Surety deleted.");
    await eventually(() => row.count()).toBe(0);

    for (const who of [DEMO.companyUser, DEMO.clientUser]) {
      const other = await signedIn(b, who);
      await other.goto(`${BASE_URL}/admin/sureties`);
      await eventually(() => other.getByText("Access denied.").isVisible()).toBe(true);
      await other.context().close();
    }
  });
});

describe("a bond's life", () => {
  it("creates a bond with a surety typed free; rider, 50 % reduction, maintenance bond, collateral, release", async () => {
    const page = await signedIn(b, DEMO.companyUser);
    await page.goto(`${BASE_URL}/permits/new`);
    await choose(page, "Project", new RegExp(projectName.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    await page.getByLabel("Permit Number").fill(`BOND-${stamp}`.toUpperCase());
    await page.getByLabel("Permit Name").fill(BOND_NAME);
    await choose(page, "Record Type", "Bond / Guarantee");
    await page.getByLabel("Agency", { exact: true }).fill("City of Boulder");
    await page.getByLabel("Original Bond Amount").fill("100,000");
    await choose(page, "Guarantee Type", "Performance");
    await page.getByLabel("Surety Company").fill(SURETY);
    await eventually(() =>
      page.getByText(`"${SURETY}" is a new surety: it will be added to Surety Admin.`).isVisible(),
    ).toBe(true);
    await page.getByLabel("Bond Number").fill(BOND_NUMBER);
    await page.getByLabel("Issue Date").fill(addDays(today, -200));
    await page.getByLabel("Expiration Date").fill(addDays(today, 165));
    await page.getByRole("button", { name: "Create Permit" }).click();
    await page.waitForURL(/\/permits\/[0-9a-f-]{36}$/);
    bondId = page.url().split("/").at(-1)!;

    const ledger = region(page, "Bond Ledger");
    const details = region(page, "Bond Details");
    await eventually(() => details.getByText(SURETY).isVisible()).toBe(true);
    await speaksBond(page, "Active");
    // Reached without a list to return to: back to the Bonds page.
    await expect(page.getByRole("link", { name: "Back to Bonds" }).getAttribute("href")).resolves.toBe(
      "/bonds",
    );
    const entries = ledger.getByRole("table", { name: "Bond Ledger" }).locator("tbody tr");
    await eventually(() => entries.count()).toBe(1);
    await expect(entries.first().textContent()).resolves.toContain("Original Amount");

    // Rider: +25,000 with its document (a ledger document: not one of the bond's files).
    await ledger.getByRole("button", { name: "Add Rider" }).click();
    const rider = page.getByRole("dialog", { name: "Add Rider" });
    await rider.getByLabel("Amount").fill("25000");
    await rider.getByLabel("Reason").fill("Change order 4: added storm sewer scope");
    await eventually(() => rider.getByText(`New amount: ${money(125_000)}`).isVisible()).toBe(true);
    await rider.getByLabel("Rider document").setInputFiles({
      name: `rider-${stamp}.txt`,
      mimeType: "text/plain",
      buffer: Buffer.from("rider no. 1"),
    });
    await viewportShot(page, "bonds-rider-dialog-1280");
    // One rider: its document and its entry are sent; the answer is the ledger as it is now, so
    // neither the detail nor the ledger is fetched again (the lists and the audit trail may be).
    const requests = recordApiRequests(page);
    await rider.getByRole("button", { name: "Save Rider" }).click();
    await toast(page, "Rider added.");
    await eventually(() => rider.isVisible()).toBe(false);
    await eventually(() => entries.count()).toBe(2);
    const sent = await requests.stop();
    expect(sent).toContain(`POST /api/bonds/${bondId}/documents`);
    expect(sent).toContain(`POST /api/bonds/${bondId}/ledger`);
    expect(sent).not.toContain(`GET /api/permits/${bondId}`);
    expect(sent).not.toContain(`GET /api/bonds/${bondId}/ledger`);
    expect(sent).not.toContain(`GET /api/permits/${bondId}/lifecycle`);
    expect(sent).not.toContain(`GET /api/permits/${bondId}/comments`);
    // The document is the entry's, not one of the bond's files.
    await expect(region(page, "Attachments").getByText(`rider-${stamp}.txt`).count()).resolves.toBe(0);
    await expect(
      entries
        .nth(1)
        .getByRole("link", { name: `rider-${stamp}.txt` })
        .isVisible(),
    ).resolves.toBe(true);
    await expect(entries.nth(1).textContent()).resolves.toContain(money(125_000));

    // Reduce by 50 %: the obligee's acceptance date is required (the server's message, on its field).
    await ledger.getByRole("button", { name: "Reduce Bond" }).click();
    const reduce = page.getByRole("dialog", { name: "Reduce Bond" });
    await reduce.getByRole("textbox", { name: "Percent" }).fill("50");
    await eventually(() => reduce.getByText(`New amount: ${money(62_500)}`).isVisible()).toBe(true);
    await reduce.getByRole("button", { name: "Save Reduction" }).click();
    await eventually(() => reduce.getByText("Obligee Acceptance Date is required").isVisible()).toBe(true);
    await reduce.getByLabel("Obligee Acceptance Date").fill(today);
    await reduce.getByRole("button", { name: "Save Reduction" }).click();
    await toast(page, "Bond reduced.");
    await eventually(() => entries.count()).toBe(3);
    await eventually(() => statusChips(page).first().textContent()).toBe("Reduced");
    await expect(entries.nth(2).textContent()).resolves.toContain("By 50%");

    // Collateral held by the surety.
    const collateral = region(page, "Collateral");
    await collateral.getByRole("button", { name: "Add Collateral" }).click();
    const addCollateral = page.getByRole("dialog", { name: "Add Collateral" });
    await choose(page, "Form", "Cash");
    await addCollateral.getByLabel("Amount").fill("15000");
    await addCollateral.getByRole("button", { name: "Save Collateral" }).click();
    await toast(page, "Collateral added.");
    await eventually(() => collateral.getByText(`Cash · ${money(15_000)}`).isVisible()).toBe(true);

    // A phone shows the open bond's actions and ledger without sideways scrolling.
    const reducedPhone = await signedIn(b, DEMO.companyUser, PHONE);
    await reducedPhone.goto(`${BASE_URL}/permits/${bondId}`);
    await eventually(() =>
      region(reducedPhone, "Bond Details")
        .getByRole("button", { name: "Start Maintenance Bond" })
        .isVisible(),
    ).toBe(true);
    await eventually(() => region(reducedPhone, "Bond Ledger").getByRole("listitem").count()).toBe(3);
    await noSidewaysScroll(reducedPhone);
    await shot(reducedPhone, "bonds-detail-reduced-390");
    await reducedPhone.context().close();

    // Start the maintenance bond: linked both ways.
    await details.getByRole("button", { name: "Start Maintenance Bond" }).click();
    const start = page.getByRole("dialog", { name: "Start Maintenance Bond" });
    await start.getByLabel("Amount").fill("10000");
    await choose(page, "Term", /24 months/);
    await viewportShot(page, "bonds-maintenance-dialog-1280");
    await start.getByRole("button", { name: "Start Maintenance Bond" }).click();
    await toast(page, "Maintenance bond started.");
    const link = details.getByRole("link", { name: /Maintenance/ });
    await eventually(() => details.getByText("Maintenance bond:").isVisible()).toBe(true);
    await dismissToasts(page);
    await shot(page, "bonds-detail-reduced-1280");

    // Exposure by surety before the release: the reduced bond and the maintenance bond.
    const bonds = await signedIn(b, DEMO.companyUser);
    await followNavLink(bonds, "Bonds");
    await bonds.waitForURL(/\/bonds$/);
    await eventually(() => suretyRow(bonds, SURETY).textContent()).toContain(money(72_500));
    await expect(suretyRow(bonds, SURETY).textContent()).resolves.toContain("2");

    await link.click();
    await page.waitForURL(/\/permits\/[0-9a-f-]{36}$/);
    maintenanceId = page.url().split("/").at(-1)!;
    expect(maintenanceId).not.toBe(bondId);
    await eventually(() => region(page, "Bond Details").getByText("Performance bond:").isVisible()).toBe(
      true,
    );
    await expect(
      region(page, "Bond Details").getByText("Maintenance", { exact: true }).isVisible(),
    ).resolves.toBe(true);

    // A rider reversed on the maintenance bond: entries are never edited, a reversal undoes one.
    const mLedger = region(page, "Bond Ledger");
    await mLedger.getByRole("button", { name: "Add Rider" }).click();
    const mRider = page.getByRole("dialog", { name: "Add Rider" });
    await mRider.getByLabel("Amount").fill("5000");
    await mRider.getByLabel("Reason").fill("Typed in error");
    await mRider.getByRole("button", { name: "Save Rider" }).click();
    await toast(page, "Rider added.");
    const mEntries = mLedger.getByRole("table", { name: "Bond Ledger" }).locator("tbody tr");
    await eventually(() => mEntries.count()).toBe(2);
    await mLedger.getByRole("button", { name: /^Reverse the Rider/ }).click();
    const reverse = page.getByRole("dialog", { name: "Reverse Entry" });
    await reverse.getByLabel("Reason").fill("Entered on the wrong bond");
    await eventually(() => reverse.getByText(`New amount: ${money(10_000)}`).isVisible()).toBe(true);
    await reverse.getByRole("button", { name: "Reverse Entry" }).click();
    await toast(page, "Entry reversed.");
    await eventually(() => mEntries.count()).toBe(3);
    await expect(mEntries.nth(1).getByText("Reversed").isVisible()).resolves.toBe(true);
    await expect(mEntries.nth(2).textContent()).resolves.toContain(money(10_000));
    // 'Cancel Bond' is closed with 'Keep Bond', not a 'Cancel' that reads like the step itself.
    await mLedger.getByRole("button", { name: "Cancel Bond" }).click();
    const cancelBond = page.getByRole("dialog", { name: "Cancel Bond" });
    await expect(cancelBond.getByRole("button", { name: "Cancel", exact: true }).count()).resolves.toBe(0);
    await cancelBond.getByRole("button", { name: "Keep Bond" }).click();
    await eventually(() => cancelBond.isVisible()).toBe(false);
    await expect(mEntries.count()).resolves.toBe(3);

    // Release the original with its release letter; its collateral after it.
    await page.goto(`${BASE_URL}/permits/${bondId}`);
    await ledger.getByRole("button", { name: "Release Bond" }).click();
    const release = page.getByRole("dialog", { name: "Release Bond" });
    await release.getByLabel("Release letter").setInputFiles({
      name: `release-${stamp}.txt`,
      mimeType: "text/plain",
      buffer: Buffer.from("released by the city"),
    });
    await release.getByRole("button", { name: "Save Release" }).click();
    await toast(page, "Bond released.");
    // Released: one status that says so, and no countdown to an expiry that no longer matters.
    await eventually(() => statusChips(page).first().textContent()).toBe("Released");
    await expect(statusChips(page).count()).resolves.toBe(1);
    await expect(
      region(page, "Timeline")
        .getByText(/Expires in|Expired .* ago|Expires today/)
        .count(),
    ).resolves.toBe(0);
    await eventually(() => entries.count()).toBe(4);
    await expect(
      entries
        .nth(3)
        .getByRole("link", { name: `release-${stamp}.txt` })
        .isVisible(),
    ).resolves.toBe(true);
    // Released, the bond is closed: its Renewal card offers no renewal any more.
    const renewalCard = region(page, "Renewal");
    await eventually(() => renewalCard.getByRole("button", { name: "Renew" }).count()).toBe(0);
    await expect(renewalCard.getByRole("button", { name: "Acknowledge" }).count()).resolves.toBe(0);
    await collateral.getByRole("button", { name: /^Release the Cash/ }).click();
    const releaseCollateral = page.getByRole("dialog", { name: "Release Collateral" });
    await releaseCollateral.getByRole("button", { name: "Release Collateral" }).click();
    await toast(page, "Collateral released.");
    await eventually(() => collateral.getByText("Released", { exact: true }).isVisible()).toBe(true);
    await fitsItsBox(page, "Bond Ledger");
    await shot(page, "bonds-detail-released-1280");

    const phone = await signedIn(b, DEMO.companyUser, PHONE);
    await phone.goto(`${BASE_URL}/permits/${bondId}`);
    await eventually(() =>
      region(phone, "Bond Ledger").getByRole("list", { name: "Bond Ledger" }).isVisible(),
    ).toBe(true);
    await noSidewaysScroll(phone);
    await shot(phone, "bonds-detail-390");

    // Exposure by surety after the release: only the maintenance bond is open.
    await bonds.reload();
    await eventually(() => suretyRow(bonds, SURETY).textContent()).toContain(money(10_000));
    expect(await suretyRow(bonds, SURETY).textContent()).not.toContain(money(72_500));
  });

  it("shows the Bonds page, filters it by surety through the URL, and exports the view as CSV", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    // The free-typed surety gets its limits in Surety Admin: 10,000 open of 12,000 is over 80 %.
    await page.goto(`${BASE_URL}/admin/sureties`);
    await page
      .getByRole("table", { name: "Sureties" })
      .getByRole("link", { name: `Edit ${SURETY}` })
      .click();
    const drawer = page.getByRole("dialog", { name: "Edit Surety" });
    const limit = drawer.getByLabel("Aggregate Limit");
    await limit.fill("12000");
    await limit.press("Tab");
    await eventually(() => limit.inputValue()).toMatch(/^12,?000(\.00)?$/);
    await drawer.getByRole("button", { name: "Save Surety" }).click();
    await toast(page, "Surety saved.");
    // The list shows the saved limit before the Bonds page is read (a value lost on the way fails here).
    await eventually(() =>
      page
        .getByRole("table", { name: "Sureties" })
        .getByRole("row", { name: new RegExp(SURETY) })
        .textContent(),
    ).toContain(money(12_000));

    await page.goto(`${BASE_URL}/bonds`);
    const tiles = page.getByRole("region", { name: "Summary" });
    for (const tile of ["Open Exposure", "Bonds", "Expiring Soon", "Collateral Held"])
      await eventually(() => tiles.getByRole("heading", { name: tile, exact: true }).isVisible()).toBe(true);
    await eventually(() => page.getByRole("columnheader", { name: "% of Aggregate Limit" }).isVisible()).toBe(
      true,
    );
    await settled(page);
    await eventually(() => suretyRow(page, SURETY).textContent()).toContain("83.3% · over 80%");
    expect(await suretyRow(page, SURETY).getAttribute("data-high")).toBe("true");
    await fitsItsBox(page, "Bonds");
    await fitsItsBox(page, "Exposure by surety");
    await shot(page, "bonds-page-1280");

    // A surety's name in 'Exposure by Surety' filters the list (and the URL says so).
    await suretyRow(page, SURETY)
      .getByRole("button", { name: `Show the bonds of ${SURETY}` })
      .click();
    await page.waitForURL(/surety_id=/);
    await settled(page);
    const rows = page.getByRole("table", { name: "Bonds" }).locator("tbody tr");
    await eventually(() => rows.count()).toBe(2);
    await expect(
      page.getByRole("table", { name: "Bonds" }).getByText(BOND_NAME, { exact: true }).isVisible(),
    ).resolves.toBe(true);

    // Sorted by current amount, largest first, through the URL.
    await page.getByRole("button", { name: "Current" }).click();
    await page.waitForURL(/sort=current_amount/);
    await page.getByRole("button", { name: "Current" }).click();
    await page.waitForURL(/dir=desc/);
    await settled(page);
    await eventually(() => rows.first().textContent()).toContain("(Maintenance)");

    // A bond opened from the filtered list goes back to it, filters, sort and all (issue 25).
    const filtered = page.url();
    await page
      .getByRole("table", { name: "Bonds" })
      .getByRole("link", { name: BOND_NAME, exact: true })
      .click();
    await page.waitForURL(new RegExp(`/permits/${bondId}$`));
    await speaksBond(page, "Released");
    await page.getByRole("link", { name: "Back to Bonds" }).click();
    await page.waitForURL((url) => url.href === filtered);
    await settled(page);
    await eventually(() => rows.count()).toBe(2);

    // The same view reloads from its URL.
    await page.reload();
    await settled(page);
    await eventually(() => rows.count()).toBe(2);
    // The picker names its choice once the surety options have arrived, after the rows.
    await eventually(() => page.getByRole("combobox", { name: "Surety" }).textContent()).toContain(SURETY);

    const [csv] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export CSV" }).click(),
    ]);
    expect(csv.suggestedFilename()).toMatch(/^bonds-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = await textOf(csv);
    const lines = text.trim().split(/\r?\n/);
    // The CSV speaks the import's column names (as the permits export does).
    const header = lines[0]!.split(",");
    expect(header).toEqual(
      expect.arrayContaining(["surety_company", "bond_status", "current_amount", "collateral_held"]),
    );
    expect(lines).toHaveLength(3); // header + the two bonds of this surety
    const original = lines.find((l) => l.includes(BOND_NUMBER))!;
    expect(original).toContain("Released");
    expect(original).toContain(SURETY);
    expect(lines.find((l) => l.includes("(Maintenance)"))).toContain("10000");

    const [xlsx] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export Excel" }).click(),
    ]);
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
    const [schedule] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Bond Schedule" }).click(),
    ]);
    expect(schedule.suggestedFilename()).toMatch(/^bond-schedule-.*\.xlsx$/);

    // The phone: cards, no sideways scroll.
    const phone = await signedIn(b, DEMO.companyAdmin, PHONE);
    await phone.goto(`${BASE_URL}/bonds`);
    await eventually(() => phone.getByRole("list", { name: "Bonds" }).isVisible()).toBe(true);
    await noSidewaysScroll(phone);
    await shot(phone, "bonds-page-390");

    // The dark theme passes the same contrast check.
    await page.goto(`${BASE_URL}/bonds`);
    await page.getByRole("button", { name: "Toggle light/dark theme" }).click();
    await settled(page);
    await shot(page, "bonds-page-dark-1280");
    await page.goto(`${BASE_URL}/permits/${bondId}`);
    await eventually(() =>
      region(page, "Bond Ledger").getByRole("table", { name: "Bond Ledger" }).isVisible(),
    ).toBe(true);
    await shot(page, "bonds-detail-dark-1280");
    await page.goto(`${BASE_URL}/admin/sureties`);
    await eventually(() => page.getByRole("table", { name: "Sureties" }).isVisible()).toBe(true);
    await shot(page, "bonds-surety-admin-dark-1280");
    await page.getByRole("button", { name: "Toggle light/dark theme" }).click();
  });

  it("says up front that a surety bonds name cannot be deleted, and offers no delete to refuse", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await page.goto(`${BASE_URL}/admin/sureties`);
    const row = page.getByRole("table", { name: "Sureties" }).getByRole("row").filter({ hasText: SURETY });
    const remove = row.getByRole("button", { name: `Delete ${SURETY}` });
    await eventually(() => remove.getAttribute("aria-disabled")).toBe("true");
    await remove.focus();
    await eventually(() => page.getByRole("tooltip").textContent()).toBe("Cannot delete: In use by 2 bonds");
    await viewportShot(page, "bonds-surety-in-use-1280");
    // Playwright will not click what says it is disabled; a click that gets through opens nothing.
    await remove.dispatchEvent("click");
    await expect(page.getByRole("dialog", { name: "Delete surety" }).count()).resolves.toBe(0);
    await expect(row.count()).resolves.toBe(1);
    // The server refuses it anyway.
    const surety = (
      (await (await page.request.get(`${BASE_URL}/api/sureties`)).json()) as SuretyList
    ).sureties.find((x) => x.name === SURETY)!;
    const refused = await page.request.delete(`${BASE_URL}/api/sureties/${surety.id}`, { headers: CSRF });
    expect(refused.status()).toBe(409);
  });

  it("shows an open bond past its date as 'Active · past expiry', its one status, here and in the list", async () => {
    const page = await signedIn(b, DEMO.companyUser);
    const name = `Lapsed Bond ${stamp}`;
    const res = await page.request.post(`${BASE_URL}/api/permits`, {
      headers: CSRF,
      data: {
        permit_number: `LAPSED-${stamp}`.toUpperCase(),
        permit_name: name,
        record_type: "bond",
        agency: "City of Boulder",
        project_id: (
          (await (await page.request.get(`${BASE_URL}/api/permits/${bondId}`)).json()) as {
            project_id: string;
          }
        ).project_id,
        guarantee_type: "Performance",
        bond_amount: "40000",
        surety_company: SURETY,
        issue_date: addDays(today, -400),
        expiration_date: addDays(today, -3),
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    const id = ((await res.json()) as { id: string }).id;
    await page.goto(`${BASE_URL}/permits/${id}`);
    await speaksBond(page, "Active · past expiry");
    await expect(page.getByText("Expired", { exact: true }).count()).resolves.toBe(0);
    await dismissToasts(page);
    await shot(page, "bonds-detail-past-expiry-1280");
    const phone = await signedIn(b, DEMO.companyUser, PHONE);
    await phone.goto(`${BASE_URL}/permits/${id}`);
    await eventually(() => statusChips(phone).first().textContent()).toBe("Active · past expiry");
    await shot(phone, "bonds-detail-past-expiry-390");
    await phone.context().close();

    await page.goto(`${BASE_URL}/bonds?q=${encodeURIComponent(name)}`);
    await settled(page);
    const row = page.getByRole("table", { name: "Bonds" }).locator("tbody tr");
    await eventually(() => row.count()).toBe(1);
    await expect(row.locator("[data-status-chip]").count()).resolves.toBe(1);
    await expect(row.locator("[data-status-chip]").textContent()).resolves.toBe("Active · past expiry");
    await expect(row.getByText("Expired", { exact: true }).count()).resolves.toBe(0);
  });
});

describe("as a client-user", () => {
  it("sees its clients' bonds, but no collateral, limits or ledger actions", async () => {
    const page = await signedIn(b, DEMO.clientUser);
    await followNavLink(page, "Bonds");
    await page.waitForURL(/\/bonds$/);
    const tiles = page.getByRole("region", { name: "Summary" });
    await eventually(() =>
      tiles.getByRole("heading", { name: "Open Exposure", exact: true }).isVisible(),
    ).toBe(true);
    await settled(page);
    await expect(tiles.getByRole("heading", { name: "Collateral Held", exact: true }).count()).resolves.toBe(
      0,
    );
    await eventually(() => page.getByRole("table", { name: "Exposure by surety" }).isVisible()).toBe(true);
    await expect(page.getByRole("columnheader", { name: "% of Aggregate Limit" }).count()).resolves.toBe(0);
    await expect(page.getByRole("columnheader", { name: "Collateral" }).count()).resolves.toBe(0);
    await page.getByLabel("Search bonds").fill(stamp);
    await page.waitForURL(/q=/);
    await settled(page);
    await eventually(() =>
      page.getByRole("table", { name: "Bonds" }).getByText(BOND_NAME, { exact: true }).isVisible(),
    ).toBe(true);
    await shot(page, "bonds-page-client-user-1280");

    // Nothing of it through the API either.
    const list = (await (await page.request.get(`${BASE_URL}/api/bonds?q=${stamp}`)).json()) as BondList;
    expect(list.summary.collateral_held).toBeNull();
    expect(list.by_surety.every((r) => r.aggregate_limit === null)).toBe(true);
    const sureties = (await (await page.request.get(`${BASE_URL}/api/sureties`)).json()) as SuretyList;
    expect(sureties.sureties.every((s) => s.aggregate_limit === null && s.single_limit === null)).toBe(true);

    await page.getByRole("link", { name: BOND_NAME, exact: true }).click();
    await page.waitForURL(new RegExp(`/permits/${bondId}$`));
    const ledger = region(page, "Bond Ledger");
    await eventually(() => ledger.getByRole("table", { name: "Bond Ledger" }).isVisible()).toBe(true);
    await expect(region(page, "Collateral").count()).resolves.toBe(0);
    await expect(ledger.getByRole("button").count()).resolves.toBe(0);
    await expect(page.getByRole("button", { name: "Start Maintenance Bond" }).count()).resolves.toBe(0);
    await shot(page, "bonds-detail-client-user-1280");
    // Exports are the staff's: the page offers none the API would refuse.
    const exported = await page.request.get(`${BASE_URL}/api/bonds/export?format=csv`);
    if (!list.can.export) expect(exported.status()).toBe(403);
  });
});

describe("clean-up", () => {
  it("leaves no template or count behind for the other specs", async () => {
    // The bonds stay (as the lifecycle spec's permits do); the surety a bond names cannot go.
    const page = await signedIn(b, DEMO.companyAdmin);
    const res = await page.request.get(`${BASE_URL}/api/sureties`);
    const { sureties } = (await res.json()) as SuretyList;
    const mine = sureties.filter((s) => s.name.endsWith(stamp) && !s.bond_count);
    for (const s of mine) {
      const gone = await page.request.delete(`${BASE_URL}/api/sureties/${s.id}`, { headers: CSRF });
      expect(gone.status()).toBe(204);
    }
  });
});
