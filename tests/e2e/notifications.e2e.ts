import { execFileSync } from "node:child_process";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { readDataDirLock } from "../../server/db/client.ts";
import { chooseTarget, runOnServer } from "../../server/jobs/reminders-cli.ts";
import {
  BASE_URL,
  DEMO,
  DEMO_PASSWORD,
  followNavLink,
  PHONE,
  screenshot,
  SCREENSHOT_DIR,
  signIn,
  useBrowser,
} from "./support.ts";

const b = useBrowser();

async function openSettings(page: Page, email: string) {
  await signIn(page, email, DEMO_PASSWORD);
  await page.waitForURL(/\/permits$/);
  await page.goto(`${BASE_URL}/settings/notifications`);
  await page.getByRole("heading", { name: "Notification Settings" }).waitFor();
}

/**
 * `npm run reminders` as the command does it: on the embedded database, read the lock and ask the
 * running server; on PostgreSQL (E2E_DATABASE_URL, across-servers.ts's two servers) the command
 * opens the database itself.
 */
async function runRemindersOnServer(): Promise<{ emailsSent: number }> {
  if (process.env.E2E_DATABASE_URL) {
    const out = execFileSync(process.execPath, ["--import", "tsx", "server/jobs/reminders-cli.ts"], {
      env: {
        ...process.env,
        DATABASE_URL: process.env.E2E_DATABASE_URL,
        DATA_DIR: process.env.E2E_DATA_DIR,
        PUBLIC_URL: BASE_URL,
        SMTP_URL: "",
      },
      encoding: "utf8",
    });
    return { emailsSent: Number(/Sent (\d+) e-mail/.exec(out)?.[1] ?? 0) };
  }
  const target = chooseTarget({ DATABASE_URL: undefined }, readDataDirLock(process.env.E2E_DATA_DIR!));
  if (target.kind !== "server") throw new Error("the e2e server does not advertise itself in the lock file");
  return runOnServer(target, { dryRun: false });
}

describe("notification settings", () => {
  it("lets a company-admin switch reminders and choose recipients, and shows the saved message", async () => {
    const page = await b.newPage();
    await signIn(page, DEMO.companyAdmin, DEMO_PASSWORD);
    await page.waitForURL(/\/permits$/);
    await followNavLink(page, "Notifications");
    await page.waitForURL(/\/settings\/notifications$/);

    const sevenDay = page.getByLabel("7 days before expiration");
    await expect.poll(() => sevenDay.isChecked(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByLabel("30 days before expiration").isChecked()).toBe(true);
    expect(await page.getByLabel("1 day before expiration").isChecked()).toBe(true);
    const sam = page.getByLabel(/^Sam Baker/);
    expect(await page.getByLabel(/^Dana Whitfield/).isChecked()).toBe(true);
    expect(await sam.isChecked()).toBe(false);
    // a client-user never receives company-wide digests, so is not offered
    expect(await page.getByLabel(/^Jordan Ellis/).count()).toBe(0);

    await sevenDay.uncheck();
    await sam.check();
    await page.getByRole("button", { name: "Save Settings" }).click();
    await page.getByText("Notification settings saved successfully.").waitFor();

    await page.reload();
    await expect.poll(() => page.getByLabel(/^Sam Baker/).isChecked(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByLabel("7 days before expiration").isChecked()).toBe(false);

    // put it back, so the reminders below go out for every threshold
    await page.getByLabel("7 days before expiration").check();
    await page.getByRole("button", { name: "Save Settings" }).click();
    await page.getByText("Notification settings saved successfully.").waitFor();
  });

  it("runs the reminders through the server (as `npm run reminders` does) and shows the deliveries and a test e-mail", async () => {
    const report = await runRemindersOnServer();
    expect(report.emailsSent).toBeGreaterThan(0);
    const page = await b.newPage();
    await openSettings(page, DEMO.companyAdmin);
    const table = page.getByRole("table", { name: "Recent deliveries" });
    await table.waitFor();
    expect(await table.getByText("dana.whitfield@summit-ridge.example").first().isVisible()).toBe(true);
    expect(await table.getByText("Sent").first().isVisible()).toBe(true);

    await page.getByRole("button", { name: "Send test e-mail" }).click();
    await page.getByText(`Test e-mail sent to ${DEMO.companyAdmin}.`).waitFor();
    await screenshot(page, "notification-settings");

    const phone = await b.newPage({ viewport: PHONE });
    await openSettings(phone, DEMO.companyAdmin);
    await phone.getByRole("list", { name: "Recent deliveries" }).waitFor();
    await screenshot(phone, "notification-settings-phone");
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  it("lets a super-admin pick the company", async () => {
    const page = await b.newPage();
    await openSettings(page, DEMO.superAdmin);
    await page.getByText("Select a company to see and change its notification settings.").waitFor();
    await page.getByLabel("Company").click();
    await page.getByRole("option", { name: "Bayline Civil Engineering" }).click();
    await page.getByLabel(/^Maya Chen/).waitFor();
    expect(await page.getByLabel(/^Dana Whitfield/).count()).toBe(0);
    await page
      .getByRole("table", { name: "Recent deliveries" })
      .getByText("maya.chen@bayline-civil.example")
      .first()
      .waitFor();
    await screenshot(page, "notification-settings-super-admin");
  });

  it("refuses company-users", async () => {
    const page = await b.newPage();
    await openSettings(page, DEMO.companyUser);
    await page.getByText("Access denied.").waitFor();
    expect(await page.getByRole("button", { name: "Save Settings" }).count()).toBe(0);
  });
});

describe("calendar feed", () => {
  it("creates a private feed link from the header, serves the user's permits in it, and revokes it", async () => {
    const page = await b.newPage();
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: BASE_URL });
    await signIn(page, DEMO.clientUser, DEMO_PASSWORD);
    await page.waitForURL(/\/permits$/);
    await page.getByRole("button", { name: "Calendar feed" }).click();
    const dialog = page.getByRole("dialog", { name: "Calendar feed" });
    await dialog.getByText("You have no calendar feed yet.", { exact: false }).waitFor();
    await dialog.getByRole("button", { name: "Create link" }).click();
    const field = dialog.getByLabel("Calendar feed URL");
    await field.waitFor();
    const url = await field.inputValue();
    expect(url).toMatch(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    await dialog.getByRole("button", { name: "Copy link" }).click();
    await page.getByText("Link copied.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await screenshot(page, "calendar-feed-dialog");

    // what Outlook or Google Calendar would fetch, without any session
    const feed = await fetch(url);
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    const ics = await feed.text();
    expect(ics).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(ics).toContain("BEGIN:VEVENT");
    expect(ics).toContain("BEGIN:VALARM");

    await dialog.getByRole("button", { name: "Revoke" }).click();
    await dialog.getByText("You have no calendar feed yet.", { exact: false }).waitFor();
    expect((await fetch(url)).status).toBe(404);

    const phone = await b.newPage({ viewport: PHONE });
    await signIn(phone, DEMO.companyUser, DEMO_PASSWORD);
    await phone.waitForURL(/\/permits$/);
    await phone.getByRole("button", { name: "Calendar feed" }).click();
    await phone
      .getByRole("dialog", { name: "Calendar feed" })
      .getByRole("button", { name: "Create link" })
      .click();
    await phone.getByLabel("Calendar feed URL").waitFor();
    // the dialog alone: a full-page shot of a phone is mostly the permit list behind it
    await phone
      .getByRole("dialog", { name: "Calendar feed" })
      .screenshot({ path: path.join(SCREENSHOT_DIR, "calendar-feed-dialog-phone.png") });
  });
});
