import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../shared/domain/dates.ts";
import type { PermitDetail, PermitList } from "../../shared/schemas/permits.ts";
import { BASE_URL, DEMO, eventually, PHONE, SCREENSHOT_DIR, shot, signedIn, useBrowser } from "./support.ts";

// The review queue of document requests (issue 27, items 4 and 6): a request the party has
// submitted shows in the nav's count, on the All Permits list's 'To Review' tile and on the
// company-wide Requests page (filtered by state); approved from the permit's page, the count drops.
// A client-user has none of them.

const stamp = Date.now().toString(36);
const DESKTOP = { width: 1280, height: 800 };
const b = useBrowser({ viewport: DESKTOP });
const CSRF = { "x-requested-with": "permitrack" };
/** Where the issue's screenshots are looked at, besides test-results/screenshots. */
const SHOTS = "/tmp/queue-shots";

async function snap(page: Page, name: string) {
  await shot(page, name);
  fs.mkdirSync(SHOTS, { recursive: true });
  fs.copyFileSync(path.join(SCREENSHOT_DIR, `${name}.png`), path.join(SHOTS, `${name}.png`));
}

/** The e-mails the server wrote (no SMTP_URL in the e2e run: .eml files in DATA_DIR/outbox). */
function outbox(): string[] {
  const dir = path.join(process.env.E2E_DATA_DIR ?? "data", "outbox");
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).map((file) => fs.readFileSync(path.join(dir, file), "utf8"));
}
const unfold = (eml: string) =>
  eml
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
/** The token of the request link e-mailed to `to` (waits for the e-mail). */
async function tokenMailedTo(to: string): Promise<string> {
  let token = "";
  await eventually(async () => {
    const found = outbox()
      .map(unfold)
      .filter((eml) => eml.includes(to))
      .flatMap((eml) => [...eml.matchAll(/\/request\/([A-Za-z0-9_.~-]+)/g)].map((m) => m[1]!));
    token = found.at(-1) ?? "";
    return token;
  }).not.toBe("");
  return token;
}

const PARTY = {
  name: `Quinn Desk ${stamp}`,
  email: `quinn.desk.${stamp}@county-queue.example`,
  organization: `County Queue Office ${stamp}`,
};
let permit: PermitDetail;
let projectId = "";
let requestId = "";
let today = "";
let admin: Page;

async function awaitingCount(request: APIRequestContext): Promise<number> {
  return ((await (await request.get(`${BASE_URL}/api/requests/awaiting-count`)).json()) as { count: number })
    .count;
}

beforeAll(async () => {
  const client = await signedIn(b, DEMO.clientUser);
  const seen = (await (
    await client.request.get(`${BASE_URL}/api/permits?group=none&page_size=1`)
  ).json()) as PermitList;
  projectId = seen.items[0]!.project!.id;
  await client.context().close();

  admin = await signedIn(b, DEMO.companyAdmin);
  const me = await (await admin.request.get(`${BASE_URL}/api/me`)).json();
  today = new Intl.DateTimeFormat("en-CA", { timeZone: me.company?.timeZone ?? "UTC" }).format(new Date());
  const created = await admin.request.post(`${BASE_URL}/api/permits`, {
    headers: CSRF,
    data: {
      project_id: projectId,
      record_type: "permit",
      agency: "Boulder County",
      permit_number: `RQQ-${stamp}`.toUpperCase(),
      permit_name: `Queue permit ${stamp}`,
      issue_date: addDays(today, -300),
      expiration_date: addDays(today, 40),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  permit = (await created.json()) as PermitDetail;
  const asked = await admin.request.post(`${BASE_URL}/api/permits/${permit.id}/requests`, {
    headers: CSRF,
    data: { ...PARTY, documentKind: "inspection_report", dueDate: addDays(today, 10) },
  });
  expect(asked.status(), await asked.text()).toBe(201);
  requestId = ((await asked.json()) as { request: { id: string } }).request.id;
});

afterAll(async () => {
  await admin?.context().close();
});

describe("the review queue of document requests", () => {
  it("a submitted request shows in the nav count, the To Review tile and the Requests page; approving drops the count", async () => {
    const before = await awaitingCount(admin.request);
    // The party answers by its link, no session.
    const token = await tokenMailedTo(PARTY.email);
    const anon = await b.newPage();
    const up = await anon.request.post(`${BASE_URL}/api/request-links/${token}/files`, {
      headers: CSRF,
      multipart: {
        file: {
          name: "inspection.pdf",
          mimeType: "application/pdf",
          buffer: Buffer.from("%PDF-1.4\n% final inspection\ntrailer<<>>\n%%EOF\n"),
        },
      },
    });
    expect(up.status(), await up.text()).toBe(201);
    const sub = await anon.request.post(`${BASE_URL}/api/request-links/${token}/submit`, {
      headers: CSRF,
      data: { values: {} },
    });
    expect(sub.status(), await sub.text()).toBe(200);
    await anon.close();
    const count = await awaitingCount(admin.request);
    expect(count).toBe(before + 1);

    // The nav's badge (read again when the window regains focus; a reload here).
    const page = admin;
    await page.goto(`${BASE_URL}/permits?q=${stamp}&group=none`);
    const nav = page.getByRole("navigation", { name: "Main" });
    const link = nav.getByRole("link", { name: new RegExp(`^Requests\\s*,\\s*${count} awaiting review$`) });
    await eventually(() => link.isVisible()).toBe(true);

    // The tile: this permit is the one of the search that awaits review.
    const tile = page.getByRole("button", { name: /^To Review/ });
    await eventually(() => tile.textContent()).toMatch(/To Review\s*1$/);
    await tile.click();
    await page.waitForURL(/tile=review/);
    await eventually(() => page.getByRole("link", { name: permit.permit_name }).first().isVisible()).toBe(
      true,
    );
    await snap(page, "permits-review-tile-1280");

    // The Requests page from the nav, filtered by state.
    await link.click();
    await page.waitForURL(/\/requests$/);
    const table = page.getByRole("table", { name: "Requests" });
    await eventually(() => table.getByText(PARTY.name).isVisible()).toBe(true);
    await page.getByLabel("Party").fill(stamp);
    await page.waitForURL(/party=/);
    await page.getByLabel("State").click();
    await page.getByRole("option", { name: "Awaiting review" }).click();
    await page.waitForURL(/state=awaiting_review/);
    await eventually(() => table.getByRole("row").count()).toBe(2);
    const row = table.getByRole("row").nth(1);
    await expect(row.getByText("Submitted").isVisible()).resolves.toBe(true);
    await expect(row.getByText(PARTY.organization).isVisible()).resolves.toBe(true);
    await snap(page, "requests-page-awaiting-1280");
    await page.getByLabel("State").click();
    await page.getByRole("option", { name: "Approved" }).click();
    await eventually(() => page.getByText("No requests match these filters.").isVisible()).toBe(true);

    // The project dashboard's Open Requests.
    await page.goto(`${BASE_URL}/projects/${projectId}/dashboard`);
    const openCard = page.getByRole("region", { name: "Open Requests" });
    await eventually(() => openCard.getByText(PARTY.name).isVisible()).toBe(true);
    await expect(openCard.getByRole("link", { name: permit.permit_name }).isVisible()).resolves.toBe(true);
    await openCard.scrollIntoViewIfNeeded();
    await snap(page, "project-open-requests-1280");

    // A phone: cards, no sideways scroll.
    const phone = await signedIn(b, DEMO.companyAdmin, PHONE);
    await phone.goto(`${BASE_URL}/requests?party=${stamp}`);
    await eventually(() =>
      phone.getByRole("list", { name: "Requests" }).getByText(PARTY.name).isVisible(),
    ).toBe(true);
    const sideways = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(sideways).toBeLessThanOrEqual(0);
    await snap(phone, "requests-page-390");
    await phone.goto(`${BASE_URL}/permits?q=${stamp}&group=none&tile=review`);
    await eventually(() => phone.getByText(/Showing To Review: 1 of/).isVisible()).toBe(true);
    await snap(phone, "permits-review-tile-390");
    await phone.context().close();

    // Approve from the permit's page: the count drops.
    await page.goto(`${BASE_URL}/requests?party=${stamp}`);
    await page.getByRole("link", { name: permit.permit_name }).click();
    await page.waitForURL(new RegExp(`/permits/${permit.id}$`));
    const item = page
      .getByRole("region", { name: "Requests", exact: true })
      .getByRole("listitem", { name: "Inspection Report request" });
    await item.getByRole("button", { name: "Approve" }).click();
    await eventually(() => item.getByText("Approved", { exact: true }).isVisible()).toBe(true);
    const after = count - 1;
    await eventually(() => awaitingCount(admin.request)).toBe(after);
    await eventually(() =>
      nav
        .getByRole("link", {
          name: after ? new RegExp(`^Requests\\s*,\\s*${after} awaiting review$`) : /^Requests$/,
        })
        .isVisible(),
    ).toBe(true);
    expect(requestId).toBeTruthy();
  });

  it("a client-user has no Requests link, page, count or To Review tile", async () => {
    const client = await signedIn(b, DEMO.clientUser);
    const nav = client.getByRole("navigation", { name: "Main" });
    await eventually(() => nav.getByRole("link", { name: "Permits" }).isVisible()).toBe(true);
    await expect(nav.getByRole("link", { name: /^Requests/ }).count()).resolves.toBe(0);
    await expect(client.getByRole("button", { name: /^To Review/ }).count()).resolves.toBe(0);
    expect((await client.request.get(`${BASE_URL}/api/requests`)).status()).toBe(403);
    expect((await client.request.get(`${BASE_URL}/api/requests/awaiting-count`)).status()).toBe(403);
    await client.goto(`${BASE_URL}/requests`);
    await eventually(() =>
      client
        .getByText(/not allowed|Access denied|permission/i)
        .first()
        .isVisible(),
    ).toBe(true);
    // The permit's card: what was asked and its state, never the party.
    await client.goto(`${BASE_URL}/permits/${permit.id}`);
    const card = client.getByRole("region", { name: "Requests", exact: true });
    await eventually(() => card.getByText("Inspection Report").first().isVisible()).toBe(true);
    await expect(card.getByText(PARTY.email).count()).resolves.toBe(0);
    await expect(card.getByText(PARTY.name).count()).resolves.toBe(0);
    await client.context().close();
  });
});
