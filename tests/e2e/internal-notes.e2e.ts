import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../shared/domain/dates.ts";
import type { PermitDetail, PermitList } from "../../shared/schemas/permits.ts";
import { BASE_URL, DEMO, eventually, shot, signedIn, useBrowser, viewportShot } from "./support.ts";

// Issue 25, item 4: what clients read. A company-user renews a permit of the client-user's client
// with an internal note (and the fee, internal unless unticked) and extends it with a reason left
// shown; the client-user's page shows the reason but neither the note nor the fee, anywhere on it.

const stamp = Date.now().toString(36);
const DESKTOP = { width: 1280, height: 800 };
const b = useBrowser({ viewport: DESKTOP });
const CSRF = { "x-requested-with": "permitrack" };

const INTERNAL_NOTE = `Agency clerk asked for a favour ${stamp}`;
const SHOWN_REASON = `Agency backlog, letter of ${stamp}`;
const INTERNAL_INSPECTION = `Foreman was absent ${stamp}`;

const region = (page: Page, name: string) => page.getByRole("region", { name, exact: true });

let today = "";
let permit: PermitDetail;

beforeAll(async () => {
  // A project of the client-user's client, so the client-user sees the permit too.
  const client = await signedIn(b, DEMO.clientUser);
  const seen = (await (
    await client.request.get(`${BASE_URL}/api/permits?group=none&page_size=1`)
  ).json()) as PermitList;
  const projectId = seen.items[0]!.project!.id;
  await client.context().close();

  const admin = await signedIn(b, DEMO.companyAdmin);
  const me = await (await admin.request.get(`${BASE_URL}/api/me`)).json();
  today = new Intl.DateTimeFormat("en-CA", { timeZone: me.company?.timeZone ?? "UTC" }).format(new Date());
  const res = await admin.request.post(`${BASE_URL}/api/permits`, {
    headers: CSRF,
    data: {
      permit_number: `IN-${stamp}`.toUpperCase(),
      permit_name: `Internal notes ${stamp}`,
      record_type: "permit",
      agency: "City of Boulder",
      project_id: projectId,
      issue_date: addDays(today, -300),
      expiration_date: addDays(today, 20),
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  permit = (await res.json()) as PermitDetail;
  await admin.context().close();
});

describe("internal notes", () => {
  it("a company-user marks a renewal's note 'Internal' and sees it marked; the fee is internal unless unticked", async () => {
    const page = await signedIn(b, DEMO.companyUser);
    await page.goto(`${BASE_URL}/permits/${permit.id}`);
    const renewal = region(page, "Renewal");
    await eventually(() => renewal.getByRole("button", { name: "Renew" }).isVisible()).toBe(true);

    await renewal.getByRole("button", { name: "Renew" }).click();
    const renew = page.getByRole("dialog", { name: "Renew Permit" });
    const [feeInternal, noteInternal] = await renew.getByRole("checkbox", { name: "Internal" }).all();
    expect(await renew.getByRole("checkbox", { name: "Internal" }).count()).toBe(2);
    // The fee's switch is ticked, the note's not (as a comment's).
    await expect(feeInternal!.isChecked()).resolves.toBe(true);
    await expect(noteInternal!.isChecked()).resolves.toBe(false);
    await expect(renew.getByText("Renewal Fee: your team only, never the client.").isVisible()).resolves.toBe(
      true,
    );
    await expect(renew.getByText("Note: the client sees it too.").isVisible()).resolves.toBe(true);
    await renew.getByLabel("New Expiration Date").fill(addDays(today, 400));
    await renew.getByLabel("Renewal Fee").fill("480");
    await renew.getByLabel("Note").fill(INTERNAL_NOTE);
    await noteInternal!.check();
    await expect(renew.getByText("Note: your team only, never the client.").isVisible()).resolves.toBe(true);
    await viewportShot(page, "internal-notes-renew-dialog-desktop");
    await renew.getByRole("button", { name: "Save Renewal" }).click();
    await eventually(() => renew.isVisible()).toBe(false);

    const extendButton = renewal.getByRole("button", { name: "Extend" });
    await extendButton.click();
    const extend = page.getByRole("dialog", { name: "Extend Permit" });
    await expect(extend.getByRole("checkbox", { name: "Internal" }).isChecked()).resolves.toBe(false);
    await extend.getByLabel("New Expiration Date").fill(addDays(today, 430));
    await extend.getByLabel("Reason").fill(SHOWN_REASON);
    await extend.getByRole("button", { name: "Save Extension" }).click();
    await eventually(() => extend.isVisible()).toBe(false);

    const inspections = region(page, "Inspections");
    await inspections.getByRole("button", { name: "Record Inspection" }).click();
    const inspection = page.getByRole("dialog", { name: "Record Inspection" });
    await inspection.getByLabel("Inspection Type").fill("Framing");
    await inspection.getByRole("combobox", { name: "Result" }).click();
    await page.getByRole("option", { name: "Failed" }).click();
    await inspection.getByLabel("Notes").fill(INTERNAL_INSPECTION);
    await inspection.getByRole("checkbox", { name: "Internal" }).check();
    await inspection.getByRole("button", { name: "Save Inspection" }).click();
    await eventually(() => inspection.isVisible()).toBe(false);

    // Staff read everything, each internal part marked.
    const terms = region(page, "Terms");
    await eventually(() => terms.getByText(INTERNAL_NOTE, { exact: false }).isVisible()).toBe(true);
    await expect(terms.getByText(INTERNAL_NOTE, { exact: false }).textContent()).resolves.toBe(
      `Fee $480.00Internal · ${INTERNAL_NOTE}Internal`,
    );
    await expect(terms.getByText(SHOWN_REASON, { exact: false }).isVisible()).resolves.toBe(true);
    await eventually(() => inspections.getByText(INTERNAL_INSPECTION, { exact: false }).textContent()).toBe(
      `${INTERNAL_INSPECTION}Internal`,
    );
    await terms.scrollIntoViewIfNeeded();
    await shot(page, "internal-notes-staff-desktop");
  });

  it("the client-user's page shows the shown reason, never the internal note, fee or inspection note", async () => {
    const page = await signedIn(b, DEMO.clientUser);
    await page.goto(`${BASE_URL}/permits/${permit.id}`);
    const terms = region(page, "Terms");
    await eventually(() => terms.getByText(SHOWN_REASON, { exact: false }).isVisible()).toBe(true);
    await eventually(() => region(page, "Inspections").getByText("Framing").isVisible()).toBe(true);
    await eventually(() => region(page, "Audit Trail").getByText(SHOWN_REASON).count()).toBeGreaterThan(0);
    const text = await page.locator("body").innerText();
    const html = await page.content();
    for (const secret of [INTERNAL_NOTE, INTERNAL_INSPECTION, "480.00", "$480"]) {
      expect(text, secret).not.toContain(secret);
      expect(html, secret).not.toContain(secret);
    }
    await expect(page.getByText("Internal", { exact: true }).count()).resolves.toBe(0);
    await shot(page, "internal-notes-client-desktop");
  });
});
