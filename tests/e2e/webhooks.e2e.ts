import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

// Webhooks (issue 30, items 3 and 4) in the browser: a company-admin adds a webhook to a real HTTP
// receiver started here, copies its signing secret from the once-only dialog, edits a permit, and
// the receiver gets a signed 'permit.updated' POST that verifies with the standardwebhooks package;
// the endpoint's delivery log shows it, 'Resend' sends the same webhook-id again. The pages on a
// laptop and on a phone. (The e2e server runs with WEBHOOKS_ALLOW_PRIVATE=true: 127.0.0.1 is allowed.)

const stamp = Date.now().toString(36);
const DESKTOP = { width: 1280, height: 800 };
const b = useBrowser({ viewport: DESKTOP });

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
let receiver: Server;
let hookUrl = "";
let secret = "";

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ received: true, note: `receiver ${stamp}` }));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

const typeOf = (r: Received) => (JSON.parse(r.body) as { type?: string }).type;
const headerMap = (h: IncomingHttpHeaders) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]));

async function openWebhooks(page: Page) {
  await followNavLink(page, "Webhooks");
  await page.waitForURL(/\/admin\/webhooks$/);
  await eventually(() => page.getByRole("heading", { name: "Webhooks", level: 1 }).isVisible()).toBe(true);
}

describe("Webhooks", () => {
  it("lets a company-admin add a webhook, receive a signed permit.updated, see it in the log and resend it", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: BASE_URL });
    await openWebhooks(page);

    // The dialog: the server's messages at their fields, the format guessed from the URL.
    await page.getByRole("button", { name: "Add Webhook" }).click();
    const dialog = page.getByRole("dialog", { name: "Add Webhook" });
    await dialog.getByRole("button", { name: "Save" }).click();
    await eventually(() => dialog.getByText("URL is required").isVisible()).toBe(true);
    const format = dialog.getByRole("combobox", { name: "Format" });
    await dialog.getByLabel("URL").fill("https://hooks.slack.com/services/T000/B000/XXXX");
    await eventually(() => format.textContent()).toBe("Slack incoming webhook");
    await dialog.getByLabel("URL").fill(hookUrl);
    await eventually(() => format.textContent()).toBe("Standard Webhooks (signed JSON)");
    // 'All events' clears every event (the check refuses none), and ticks them all again.
    const all = dialog.getByRole("checkbox", { name: "All events" });
    await expect(all.isChecked()).resolves.toBe(true);
    await all.uncheck();
    await expect(dialog.getByRole("checkbox", { name: "Permit updated" }).isChecked()).resolves.toBe(false);
    await dialog.getByRole("button", { name: "Save" }).click();
    await eventually(() => dialog.getByText("Choose at least one event").isVisible()).toBe(true);
    await all.check();
    await expect(dialog.getByRole("checkbox", { name: "Task overdue" }).isChecked()).resolves.toBe(true);
    await viewportShot(page, "webhooks-dialog-1280");
    await dialog.getByRole("button", { name: "Save" }).click();

    // The secret, this once.
    const shown = page.getByRole("dialog", { name: "Webhook added" });
    await eventually(() => shown.isVisible()).toBe(true);
    await expect(shown.getByText("webhook-signature").isVisible()).resolves.toBe(true);
    const value = await shown.getByTestId("new-webhook-secret").inputValue();
    expect(value).toMatch(/^whsec_/);
    await shown.getByRole("button", { name: "Copy" }).click();
    await toast(page, "Signing secret copied.");
    secret = await page.evaluate(() => navigator.clipboard.readText());
    expect(secret).toBe(value);
    await viewportShot(page, "webhooks-secret-1280");
    await shown.getByRole("button", { name: "Done" }).click();

    const table = page.getByRole("table", { name: "Webhooks" });
    const row = table.getByRole("row").filter({ hasText: hookUrl });
    await eventually(() => row.isVisible()).toBe(true);
    await expect(row.getByText("All events").isVisible()).resolves.toBe(true);
    await expect(row.getByText("Enabled").isVisible()).resolves.toBe(true);
    expect(await page.content()).not.toContain(value.slice(12));

    // Edit a record in the UI (the first by number: a bond, whose change is a 'permit.updated' too):
    // the receiver hears of it within a few seconds, signed.
    const list = await page.request.get(`${BASE_URL}/api/permits?group=none&page_size=1&sort=permit_number`);
    const permitId = ((await list.json()) as { items: { id: string }[] }).items[0]!.id;
    await page.goto(`${BASE_URL}/permits/${permitId}/edit`);
    await page.getByLabel("AKA").fill(`Webhook check ${stamp}`);
    await page.getByRole("button", { name: "Update Permit" }).click();
    await page.waitForURL(new RegExp(`/permits/${permitId}$`));
    await toast(page, "Permit updated.");
    await expect
      .poll(() => received.filter((r) => typeOf(r) === "permit.updated").length, { timeout: 20_000 })
      .toBeGreaterThan(0);
    const hit = received.find((r) => typeOf(r) === "permit.updated")!;
    expect(hit.path).toBe("/hook");
    expect(() => new Webhook(secret).verify(hit.body, headerMap(hit.headers))).not.toThrow();
    expect(() =>
      new Webhook(`whsec_${Buffer.from("wrong secret").toString("base64")}`).verify(
        hit.body,
        headerMap(hit.headers),
      ),
    ).toThrow();
    const messageId = hit.headers["webhook-id"];
    expect(messageId).toBeTruthy();

    // The delivery log: the delivery, its attempt, and 'Resend' with the same webhook-id.
    await openWebhooks(page);
    await row.getByRole("link", { name: `Deliveries of ${hookUrl}` }).click();
    await page.waitForURL(/\/admin\/webhooks\/[0-9a-f-]+\/deliveries$/);
    await eventually(() =>
      page.getByRole("heading", { name: "Webhook Deliveries", level: 1 }).isVisible(),
    ).toBe(true);
    const log = page.getByRole("table", { name: "Deliveries" });
    const delivery = log.getByRole("row").filter({ hasText: "Permit updated" }).first();
    await eventually(() => delivery.isVisible()).toBe(true);
    await expect(delivery.getByRole("cell", { name: "200", exact: true }).isVisible()).resolves.toBe(true);
    await expect(delivery.getByText("Delivered").isVisible()).resolves.toBe(true);
    await delivery.getByRole("button", { name: /^Attempts \(1\)/ }).click();
    await eventually(() => log.getByText("Status 200").first().isVisible()).toBe(true);
    await shot(page, "webhooks-deliveries-1280");

    const before = received.length;
    await delivery.getByRole("button", { name: /^Resend / }).click();
    await toast(page, "Resent: Delivered (200)");
    await expect.poll(() => received.length, { timeout: 15_000 }).toBeGreaterThan(before);
    const again = received.slice(before).find((r) => r.headers["webhook-id"] === messageId);
    expect(again, "the resend carries the same webhook-id").toBeDefined();
    expect(() => new Webhook(secret).verify(again!.body, headerMap(again!.headers))).not.toThrow();
    await eventually(() => delivery.getByRole("button", { name: /^Attempts \(2\)/ }).isVisible()).toBe(true);

    // Send Test Event from the log's page: the toast says how it went.
    await page.getByRole("button", { name: "Send Test Event" }).click();
    await toast(page, "Test event: Delivered (200)");
    await eventually(() => log.getByRole("row").filter({ hasText: "Test event" }).count()).toBeGreaterThan(0);
    await page.context().close();
  });

  it("disables and enables the webhook, shows the pages on a phone, and deletes it", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await openWebhooks(page);
    const row = page.getByRole("table", { name: "Webhooks" }).getByRole("row").filter({ hasText: hookUrl });
    await eventually(() => row.isVisible()).toBe(true);
    await row.getByRole("button", { name: `Disable ${hookUrl}` }).click();
    await toast(page, "Webhook disabled.");
    await eventually(() => row.getByText("Disabled", { exact: true }).isVisible()).toBe(true);
    await row.getByRole("button", { name: `Enable ${hookUrl}` }).click();
    await toast(page, "Webhook enabled.");
    await eventually(() => row.getByText("Enabled", { exact: true }).isVisible()).toBe(true);
    await expect(row.getByText(/^Delivered · 200$/).isVisible()).resolves.toBe(true);

    // Edit: only some events.
    await row.getByRole("button", { name: `Edit ${hookUrl}` }).click();
    const edit = page.getByRole("dialog", { name: "Edit Webhook" });
    await eventually(() => edit.getByLabel("URL").inputValue()).toBe(hookUrl);
    await edit.getByRole("checkbox", { name: "All events" }).uncheck();
    await edit.getByRole("checkbox", { name: "Permit updated" }).check();
    await edit.getByRole("checkbox", { name: "Permit closed" }).check();
    await edit.getByRole("button", { name: "Save" }).click();
    await toast(page, "Webhook saved.");
    await eventually(() => row.getByText("Permit updated, Permit closed").isVisible()).toBe(true);
    await shot(page, "webhooks-1280");
    await page.context().close();

    const phone = await signedIn(b, DEMO.companyAdmin, PHONE);
    await phone.goto(`${BASE_URL}/admin/webhooks`);
    await eventually(() => phone.getByRole("heading", { name: "Webhooks", level: 1 }).isVisible()).toBe(true);
    const cards = phone.getByRole("list", { name: "Webhooks" });
    await eventually(() => cards.isVisible()).toBe(true);
    const noSideways = () => phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await eventually(noSideways).toBeLessThanOrEqual(0);
    await shot(phone, "webhooks-390");
    const card = cards.getByRole("listitem").filter({ hasText: hookUrl });
    await card.getByRole("link", { name: `Deliveries of ${hookUrl}` }).click();
    await eventually(() => phone.getByRole("list", { name: "Deliveries" }).isVisible()).toBe(true);
    await phone
      .getByRole("list", { name: "Deliveries" })
      .getByRole("button", { name: /^Attempts \(2\)/ })
      .first()
      .click();
    await eventually(noSideways).toBeLessThanOrEqual(0);
    await shot(phone, "webhooks-deliveries-390");

    // Delete asks first; the list is empty of it after.
    await phone.getByRole("link", { name: "← Back to Webhooks" }).click();
    await eventually(() => cards.isVisible()).toBe(true);
    await card.getByRole("button", { name: `Delete ${hookUrl}` }).click();
    const confirm = phone.getByRole("dialog", { name: "Delete webhook" });
    await viewportShot(phone, "webhooks-delete-390");
    await confirm.getByRole("button", { name: "Delete" }).click();
    await toast(phone, "Webhook deleted.");
    await eventually(() => card.count()).toBe(0);
  });
});
