import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { PermitList } from "../../shared/schemas/permits.ts";
import {
  BASE_URL,
  DEMO,
  eventually,
  followNavLink,
  PHONE,
  shot,
  signedIn,
  toast,
  useBrowser,
  viewportShot,
} from "./support.ts";

// Contacts (issue 27) in the browser: a company-admin adds contacts on the Contacts page (a taken
// e-mail refused on its field), picks one on a permit's form, sees it on the permit's page with its
// e-mail; the client-user sees the name, never the e-mail or phone; the page and the card on a phone.

const stamp = Date.now().toString(36);
const DESKTOP = { width: 1280, height: 800 };
const b = useBrowser({ viewport: DESKTOP });
const NAME = `Avery Desk ${stamp}`;
const ORG = "Boulder County Building";
const EMAIL = `avery.${stamp}@county.example`;
const PHONE_NUMBER = "(720) 555-0177";
const AGENT = `Morgan Agent ${stamp}`;

const region = (page: Page, name: string) => page.getByRole("region", { name, exact: true });

async function noSidewaysScroll(page: Page) {
  await eventually(() =>
    page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
}

async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: option }).first().click();
}

/** A permit of the client-user's client: both the admin and the client-user may open it. */
let permitId = "";

beforeAll(async () => {
  const client = await signedIn(b, DEMO.clientUser);
  const seen = (await (
    await client.request.get(`${BASE_URL}/api/permits?group=none&page_size=1&sort=permit_number`)
  ).json()) as PermitList;
  permitId = seen.items[0]!.id;
  await client.context().close();
});

describe("Contacts", () => {
  it("lets a company-admin add contacts, pick one on a permit and see it on the permit's page", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await followNavLink(page, "Contacts");
    await page.waitForURL(/\/admin\/contacts$/);
    await eventually(() => page.getByRole("heading", { name: "Contacts", level: 1 }).isVisible()).toBe(true);

    // Add Contact: the schema's checks on their fields first.
    await page.getByRole("button", { name: "Add Contact" }).click();
    let dialog = page.getByRole("dialog", { name: "Add Contact" });
    await dialog.getByLabel("E-mail").fill("not-an-email");
    await dialog.getByRole("button", { name: "Add Contact" }).click();
    await eventually(() => dialog.getByText("Name is required").isVisible()).toBe(true);
    await expect(dialog.getByText("Enter a valid email address").isVisible()).resolves.toBe(true);
    await dialog.getByLabel("Name").fill(NAME);
    await dialog.getByLabel("Organization").fill(ORG);
    await dialog.getByLabel("E-mail").fill(EMAIL);
    await dialog.getByLabel("Phone").fill(PHONE_NUMBER);
    await choose(page, "Kind", "Agency");
    await viewportShot(page, "contacts-dialog-1280");
    await dialog.getByRole("button", { name: "Add Contact" }).click();
    await toast(page, "Contact added.");
    const table = page.getByRole("table", { name: "Contacts" });
    const row = table.getByRole("row").filter({ hasText: NAME });
    await eventually(() => row.getByRole("link", { name: EMAIL }).isVisible()).toBe(true);
    await expect(row.getByText(ORG).isVisible()).resolves.toBe(true);

    // The same e-mail in other letters is refused on its field, from the server.
    await page.getByRole("button", { name: "Add Contact" }).click();
    dialog = page.getByRole("dialog", { name: "Add Contact" });
    await dialog.getByLabel("Name").fill(AGENT);
    await dialog.getByLabel("E-mail").fill(EMAIL.toUpperCase());
    await dialog.getByRole("button", { name: "Add Contact" }).click();
    await eventually(() => dialog.getByText("A contact with this e-mail already exists").isVisible()).toBe(
      true,
    );
    await dialog.getByLabel("E-mail").fill(`morgan.${stamp}@surety.example`);
    await dialog.getByLabel("Organization").fill("Liberty Surety");
    await choose(page, "Kind", "Surety / Agent");
    await dialog.getByRole("button", { name: "Add Contact" }).click();
    await toast(page, "Contact added.");

    // Search and the kind filter.
    await page.getByLabel("Search contacts").fill(stamp);
    await eventually(() => table.getByRole("row").count()).toBe(3);
    await choose(page, "Kind", "Surety / Agent");
    await eventually(() => table.getByRole("row").filter({ hasText: NAME }).count()).toBe(0);
    await eventually(() => table.getByRole("row").filter({ hasText: AGENT }).count()).toBe(1);
    await choose(page, "Kind", "All kinds");
    await eventually(() => table.getByRole("row").count()).toBe(3);
    await shot(page, "contacts-page-1280");

    // Pick both on the permit's form; the page shows them with e-mail and phone.
    await page.goto(`${BASE_URL}/permits/${permitId}/edit`);
    const field = page.getByRole("combobox", { name: "Contacts" });
    await field.fill(NAME.split(" ")[0]!);
    await page.getByRole("option", { name: new RegExp(`${NAME} — ${ORG}`) }).click();
    await field.fill("Liberty");
    await page.getByRole("option", { name: new RegExp(AGENT) }).click();
    await field.scrollIntoViewIfNeeded();
    await viewportShot(page, "contacts-permit-form-1280");
    await page.getByRole("button", { name: "Update Permit" }).click();
    await page.waitForURL(new RegExp(`/permits/${permitId}$`));
    const card = region(page, "Contacts");
    await eventually(() => card.getByText(NAME).isVisible()).toBe(true);
    await expect(card.getByText(`${ORG} · Agency`).isVisible()).resolves.toBe(true);
    await expect(card.getByRole("link", { name: EMAIL }).getAttribute("href")).resolves.toBe(
      `mailto:${EMAIL}`,
    );
    await expect(card.getByText(PHONE_NUMBER).isVisible()).resolves.toBe(true);
    await expect(card.getByText(AGENT).isVisible()).resolves.toBe(true);
    await card.scrollIntoViewIfNeeded();
    await shot(page, "contacts-permit-1280");
    await page.context().close();
  });

  it("shows a client-user the contacts' names, never their e-mails or phones", async () => {
    const page = await signedIn(b, DEMO.clientUser);
    await page.goto(`${BASE_URL}/permits/${permitId}`);
    const card = region(page, "Contacts");
    await eventually(() => card.getByText(NAME).isVisible()).toBe(true);
    await expect(card.getByText(`${ORG} · Agency`).isVisible()).resolves.toBe(true);
    const text = await page.locator("body").innerText();
    expect(text).not.toContain(EMAIL);
    expect(text).not.toContain(PHONE_NUMBER);
    await expect(card.locator('a[href^="mailto:"]').count()).resolves.toBe(0);
    // Nor the Contacts page.
    await page.goto(`${BASE_URL}/admin/contacts`);
    await eventually(() => page.getByText("Access denied.").isVisible()).toBe(true);
    await page.context().close();
  });

  it("works on a phone: the list as cards, the permit's card, without sideways scroll", async () => {
    const page = await signedIn(b, DEMO.companyAdmin, PHONE);
    await page.goto(`${BASE_URL}/admin/contacts?q=${stamp}`);
    const cards = page.getByRole("list", { name: "Contacts" });
    await eventually(() => cards.getByText(NAME).isVisible()).toBe(true);
    await noSidewaysScroll(page);
    await shot(page, "contacts-page-390");
    await page.getByRole("button", { name: "Add Contact" }).click();
    await eventually(() => page.getByRole("dialog", { name: "Add Contact" }).isVisible()).toBe(true);
    await viewportShot(page, "contacts-dialog-390");
    await page.getByRole("dialog", { name: "Add Contact" }).getByRole("button", { name: "Cancel" }).click();

    await page.goto(`${BASE_URL}/permits/${permitId}`);
    const card = region(page, "Contacts");
    await eventually(() => card.getByText(NAME).isVisible()).toBe(true);
    await noSidewaysScroll(page);
    await card.scrollIntoViewIfNeeded();
    await viewportShot(page, "contacts-permit-390");

    // Delete: the confirmation says the permit loses it; the permit's page no longer lists it.
    await page.goto(`${BASE_URL}/admin/contacts?q=${stamp}`);
    await cards.getByRole("button", { name: `Delete ${AGENT}` }).click();
    const confirm = page.getByRole("dialog", { name: "Delete contact" });
    await expect(
      confirm.getByText("It is listed on 1 permit; it will be taken off it.").isVisible(),
    ).resolves.toBe(true);
    await confirm.getByRole("button", { name: "Delete" }).click();
    await toast(page, "Contact deleted.");
    await eventually(() => cards.getByText(AGENT).count()).toBe(0);
    await page.goto(`${BASE_URL}/permits/${permitId}`);
    await eventually(() => region(page, "Contacts").getByText(NAME).isVisible()).toBe(true);
    await expect(region(page, "Contacts").getByText(AGENT).count()).resolves.toBe(0);
    await page.context().close();
  });
});
