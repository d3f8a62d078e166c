import { describe, expect, it } from "vitest";
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

// API keys (issue 30, item 5) in the browser: a company-admin creates a key on the API Keys page,
// copies it from the once-only dialog, the test calls the API with it (200), the admin revokes it,
// and the same call answers 401. The page on a laptop and on a phone.

const stamp = Date.now().toString(36);
const DESKTOP = { width: 1280, height: 800 };
const b = useBrowser({ viewport: DESKTOP });
const NAME = `ERP sync ${stamp}`;

const callApi = (key: string) =>
  fetch(`${BASE_URL}/api/permits?group=none&page_size=1`, { headers: { authorization: `Bearer ${key}` } });

describe("API Keys", () => {
  it("lets a company-admin create a key, copy it once, use it, and revoke it", async () => {
    const page = await signedIn(b, DEMO.companyAdmin);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: BASE_URL });
    await followNavLink(page, "API Keys");
    await page.waitForURL(/\/admin\/api-keys$/);
    await eventually(() => page.getByRole("heading", { name: "API Keys", level: 1 }).isVisible()).toBe(true);

    await page.getByRole("button", { name: "Create API Key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create API Key" });
    await dialog.getByRole("button", { name: "Create" }).click();
    await eventually(() => dialog.getByText("Name is required").isVisible()).toBe(true);
    await dialog.getByLabel("Name").fill(NAME);
    await dialog.getByRole("combobox", { name: "Role" }).click();
    await page.getByRole("option", { name: "Company User" }).click();
    await dialog.getByLabel("Expires").fill("2099-12-31");
    await viewportShot(page, "api-keys-dialog-1280");
    await dialog.getByRole("button", { name: "Create" }).click();

    const shown = page.getByRole("dialog", { name: "API key created" });
    await eventually(() => shown.isVisible()).toBe(true);
    await expect(shown.getByText("it won't be shown again").isVisible()).resolves.toBe(true);
    const value = await shown.getByTestId("new-api-key").inputValue();
    expect(value).toMatch(/^ptk_[A-Za-z0-9_-]{43}$/);
    await shown.getByRole("button", { name: "Copy" }).click();
    await toast(page, "API key copied.");
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(value);
    await viewportShot(page, "api-keys-created-1280");
    await shown.getByRole("button", { name: "Done" }).click();

    // The list shows the key's first characters, never the key.
    const row = page.getByRole("table", { name: "API keys" }).getByRole("row").filter({ hasText: NAME });
    await eventually(() => row.isVisible()).toBe(true);
    await expect(row.getByText(`${value.slice(0, 12)}…`).isVisible()).resolves.toBe(true);
    expect(await page.content()).not.toContain(value.slice(12));

    const ok = await callApi(copied);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { items: unknown[] }).items.length).toBeGreaterThan(0);
    // Last Used shows the call once the list is read again.
    await page.reload();
    await eventually(() => row.getByText("Active").isVisible()).toBe(true);
    await eventually(() => row.getByText("Never").count()).toBe(0);
    await shot(page, "api-keys-1280");

    await row.getByRole("button", { name: `Revoke ${NAME}` }).click();
    const confirm = page.getByRole("dialog", { name: "Revoke API key" });
    await confirm.getByRole("button", { name: "Revoke" }).click();
    await toast(page, "API key revoked.");
    await eventually(() => row.getByText("Revoked").isVisible()).toBe(true);
    const refused = await callApi(copied);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { message: string }).message).toBe("This API key has been revoked.");
  });

  it("shows the API Keys page on a phone without sideways scrolling", async () => {
    const page = await signedIn(b, DEMO.companyAdmin, PHONE);
    // A key of its own (beside the revoked one above, if that ran): the cards show both states.
    const made = await page.request.post(`${BASE_URL}/api/api-keys`, {
      data: { name: `Nightly export ${stamp}`, role: "company-admin" },
      headers: { "x-requested-with": "permitrack" },
    });
    expect(made.status()).toBe(201);
    await page.goto(`${BASE_URL}/admin/api-keys`);
    await eventually(() => page.getByRole("heading", { name: "API Keys", level: 1 }).isVisible()).toBe(true);
    await eventually(() => page.getByRole("list", { name: "API keys" }).isVisible()).toBe(true);
    await eventually(() =>
      page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await shot(page, "api-keys-390");
  });
});
