import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { BASE_URL, DEMO, eventually, PHONE, signedIn, useBrowser, viewportShot } from "./support.ts";

/**
 * Issue 25 item 6, the work first on a phone (390 x 844): the list's first row, a permit's Renew
 * button and the Bonds page's first bond each start within the first screen (they were about
 * 1,000, 1,250 and 2,100 px down); a tile tap visibly does something (it shows the results). The
 * offsets measured are written to test-results/phone-offsets.json.
 */
const b = useBrowser({ viewport: PHONE });
const OUT = path.resolve("test-results", "phone-offsets.json");
const offsets: Record<string, number> = {};

/** Where an element starts, from the top of the page (not of the viewport). */
async function topOf(page: Page, selector: string): Promise<number> {
  const element = page.locator(selector).first();
  await element.waitFor({ timeout: 20_000 });
  const box = await element.boundingBox();
  const scroll = await page.evaluate(() => window.scrollY);
  return Math.round(box!.y + scroll);
}

/** The first screen, as a phone shows it on arrival (a full page of cards is metres long). */
async function firstScreen(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await viewportShot(page, name);
}

function record(name: string, value: number) {
  offsets[name] = value;
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, JSON.stringify(offsets, null, 2));
}

/** A permit the company admin may renew (its lifecycle says so). */
async function renewablePermit(page: Page): Promise<string> {
  const list = (await (
    await page.request.get(`${BASE_URL}/api/permits?group=none&tile=active&page_size=50`)
  ).json()) as { items: { id: string; record_type: string }[] };
  for (const p of list.items.filter((i) => i.record_type === "permit")) {
    const life = (await (await page.request.get(`${BASE_URL}/api/permits/${p.id}/lifecycle`)).json()) as {
      can: { renew: boolean };
    };
    if (life.can.renew) return p.id;
  }
  throw new Error("no renewable permit in the demo data");
}

describe("the work first on a phone", () => {
  it("starts the permit list within the first screen; the tiles fold into one row that opens them", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    const first = 'section[aria-label="Permits list"] article';
    const top = await topOf(page, first);
    record("permitListFirstRow", top);
    expect(top, "the first permit's top").toBeLessThan(PHONE.height);
    // One summary row instead of seven tiles; a tap opens them.
    const row = page.getByRole("button", { name: /permits/, expanded: false });
    expect(await page.getByRole("group", { name: /^Summary/ }).count()).toBe(0);
    await firstScreen(page, "phone-permits-390");
    await row.click();
    await eventually(() => page.getByRole("group", { name: /^Summary/ }).isVisible()).toBe(true);
    await firstScreen(page, "phone-permits-tiles-open-390");

    // A tile tapped: the tiles fold again and the results are on screen, below the header.
    await page
      .getByRole("group", { name: /^Summary/ })
      .getByRole("button", { name: /^Expired/ })
      .click();
    await page.waitForURL(/tile=expired/);
    await eventually(() => page.getByRole("group", { name: /^Summary/ }).count()).toBe(0);
    await eventually(() => page.getByRole("button", { name: /^Showing Expired/ }).isVisible()).toBe(true);
    await eventually(async () => {
      const box = await page.locator(first).first().boundingBox();
      return !!box && box.y >= 0 && box.y < PHONE.height;
    }).toBe(true);
    await viewportShot(page, "phone-permits-after-tile-390");
  });

  it("puts the Renew action first on a permit's page, within the first screen", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    const id = await renewablePermit(page);
    await page.goto(`${BASE_URL}/permits/${id}`);
    const top = await topOf(page, 'role=group[name="Permit actions"] >> role=button[name="Renew"]');
    record("permitPageRenew", top);
    expect(top, "Renew's top").toBeLessThan(PHONE.height);
    await firstScreen(page, "phone-permit-390");
  });

  it("starts the Bonds list within the first screen; the analytics open on a tap", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await page.goto(`${BASE_URL}/bonds`);
    const top = await topOf(page, 'section[aria-label="Bonds list"] li');
    record("bondsFirstBond", top);
    expect(top, "the first bond's top").toBeLessThan(PHONE.height);
    expect(await page.getByRole("heading", { name: "Exposure by Surety" }).count()).toBe(0);
    await firstScreen(page, "phone-bonds-390");
    await page.getByRole("button", { name: /Show Exposure/ }).click();
    await eventually(() => page.getByRole("heading", { name: "Exposure by Surety" }).isVisible()).toBe(true);
    await firstScreen(page, "phone-bonds-exposure-open-390");
  });
});
