import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { PermitFilterOptions, PermitFormOptions } from "../../shared/schemas/permits.ts";
import {
  BASE_URL,
  DEMO,
  DEMO_PASSWORD,
  eventually,
  expectAccessible,
  PHONE,
  SCREENSHOT_DIR,
  signedIn,
  signIn,
  useBrowser,
  type Viewport,
} from "./support.ts";

// Issue 25, item 2: the audit trail in words. A bond of the client-user's client goes through the
// changes the trail records (the form's fields, the ledger, collateral, an inspection, a renewal),
// then its Audit Trail card is read as staff and as the client-user, on a laptop and a phone.

const b = useBrowser();
const stamp = Date.now().toString(36);
const LAPTOP: Viewport = { width: 1280, height: 800 };
const HEADERS = { "x-requested-with": "permitrack" };

let bondId = "";

async function send(page: Page, method: "post" | "put", url: string, data: unknown) {
  const res = await page.request[method](`${BASE_URL}${url}`, { headers: HEADERS, data });
  expect(res.status(), `${method} ${url}: ${await res.text()}`).toBeLessThan(300);
  return res.json() as Promise<{ id?: string }>;
}

beforeAll(async () => {
  // A project the client-user sees, so both sides read the same trail.
  const client = await b.newPage();
  await signIn(client, DEMO.clientUser, DEMO_PASSWORD);
  await client.waitForURL(/\/permits$/);
  const seen = (await (
    await client.request.get(`${BASE_URL}/api/permits/filter-options`)
  ).json()) as PermitFilterOptions;
  await client.context().close();

  const page = await b.newPage();
  await signIn(page, DEMO.companyAdmin, DEMO_PASSWORD);
  await page.waitForURL(/\/permits$/);
  const options = (await (
    await page.request.get(`${BASE_URL}/api/permits/form-options`)
  ).json()) as PermitFormOptions;
  const project = options.projects.find((p) => seen.projects.some((s) => s.id === p.id))!;
  const sam = options.staff.find((s) => s.name === "Sam Baker")!;
  const dana = options.staff.find((s) => s.name === "Dana Whitfield")!;
  const base = {
    permit_number: `AUD-${stamp}`,
    permit_name: "Retaining wall performance bond",
    agency: "City of Springfield",
    project_id: project.id,
    is_required: true,
    archived: false,
    start_date: "2026-07-01",
    issue_date: "2026-07-01",
  };
  const created = await send(page, "post", "/api/permits", {
    ...base,
    record_type: "permit",
    expiration_date: "2027-06-30",
    expiry_rule: "fixed",
    responsible_user_id: sam.id,
  });
  bondId = created.id!;
  // The form: a permit becomes a bond of 565,263.00 under the inspection rule, another person answers.
  await send(page, "put", `/api/permits/${bondId}`, {
    ...base,
    record_type: "bond",
    guarantee_type: "Performance",
    bond_amount: "565263.00",
    surety_company: "Liberty Surety",
    expiration_date: "2027-12-01",
    expiry_rule: "after_inspection",
    expiry_days: 180,
    responsible_user_id: dana.id,
  });
  await send(page, "post", `/api/bonds/${bondId}/ledger`, {
    kind: "rider",
    change: "25000",
    effective_date: "2026-08-01",
    reason: "Added scope: east wall",
  });
  await send(page, "post", `/api/bonds/${bondId}/ledger`, {
    kind: "reduction",
    percent: "50",
    effective_date: "2026-09-01",
    obligee_acceptance_date: "2026-09-01",
  });
  await send(page, "post", `/api/bonds/${bondId}/collateral`, {
    form: "letter_of_credit",
    amount: "50000",
    held_since: "2026-07-15",
  });
  await send(page, "post", `/api/permits/${bondId}/inspections`, {
    inspection_type: "Final",
    date: "2026-11-20",
    result: "Passed",
  });
  await send(page, "post", `/api/permits/${bondId}/renewals`, {
    new_expiration_date: "2028-12-01",
    renewal_fee: "350",
    renewal_fee_internal: false,
  });
  await page.context().close();
});

const card = (page: Page) => page.getByRole("region", { name: "Audit Trail" });

/** The bond's page with its whole Audit Trail shown. */
async function openTrail(email: string, viewport: Viewport) {
  const page = await signedIn(b, email, viewport);
  await page.goto(`${BASE_URL}/permits/${bondId}`);
  const trail = card(page);
  // The renewal is the newest entry: the trail has loaded when it shows.
  await eventually(() => trail.getByText("Renew", { exact: true }).first().isVisible()).toBe(true);
  const more = trail.getByRole("button", { name: /^Show all \d+ entries$/ });
  if (await more.count()) await more.click();
  return { page, trail };
}

/** A picture of the card alone (after the page's accessibility check). */
async function cardShot(page: Page, name: string) {
  await expectAccessible(page, name);
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // From the page at the top, clipped to the card: the sticky header stays out of the picture.
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = (await card(page).boundingBox())!;
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true, clip: box });
}

const ISO_DATE = /\d{4}-\d{2}-\d{2}/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const SNAKE_CASE = /\b[a-z]+_[a-z_]+\b/;
/** Codes the trail stored as values ('bond', 'fixed', 'reduced'...), each of which has a label. */
const CODES = new Set(["permit", "bond", "fixed", "after_inspection", "active", "reduced", "true", "false"]);
const BARE_AMOUNT = /(^|[^$\d,.])\d{4,}\.\d{2}\b/;

describe("the audit trail in words", () => {
  for (const [who, email] of [
    ["staff", DEMO.companyAdmin],
    ["client-user", DEMO.clientUser],
  ] as const) {
    for (const [size, viewport] of [
      ["laptop", LAPTOP],
      ["phone", PHONE],
    ] as const) {
      it(`reads as words for ${who} on a ${size}`, async () => {
        const { page, trail } = await openTrail(email, viewport);
        const text = await trail.innerText();
        expect(text).not.toMatch(ISO_DATE);
        expect(text).not.toMatch(UUID);
        expect(text).not.toMatch(SNAKE_CASE);
        expect(text).not.toMatch(BARE_AMOUNT);
        // Every value on its own (a table cell, either side of an arrow) is no code.
        const values = text.split(/[\t\n→·]/).map((v) => v.trim());
        expect(values.filter((v) => CODES.has(v))).toEqual([]);

        // The words: names, labels, dates and amounts in the company's currency.
        for (const words of [
          "Sam Baker",
          "Dana Whitfield",
          "Bond / Guarantee",
          "Days after last passed inspection",
          "Dec 1, 2027",
          "$565,263.00",
          "Rider effective Aug 1, 2026: +$25,000.00; Added scope: east wall",
          "Reduction effective Sep 1, 2026: -$295,131.50 (50%)",
          "$295,131.50",
          "Final: Passed on Nov 20, 2026",
          // Shown to the client-user too: the fee was saved without 'Internal'.
          "$350.00",
        ])
          expect(text, words).toContain(words);
        // Collateral is staff's alone.
        const collateral = "Letter of Credit $50,000.00 held since Jul 15, 2026";
        if (who === "staff") expect(text).toContain(collateral);
        else expect(text).not.toContain("Letter of Credit");

        await cardShot(page, `audit-trail-${who}-${size}`);
      });
    }
  }
});
