import { crc32, deflateSync } from "node:zlib";
import { request, type Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  BASE_URL,
  DEMO,
  DEMO_PASSWORD,
  mainNavLinks,
  PHONE,
  screenshot,
  signIn,
  useBrowser,
} from "./support.ts";

const b = useBrowser();
const run = Date.now().toString(36);
const COMPANY = `Granite Peak Builders ${run}`;
const ADMIN = {
  first: "Gia",
  last: `Stone ${run}`,
  email: `gia.stone.${run}@granite.example`,
  password: "granite-admin-1",
};
const CLIENT_USER = {
  first: "Carl",
  last: `Client ${run}`,
  email: `carl.client.${run}@granite.example`,
  password: "granite-client-1",
};

/** A 240x80 PNG drawn here (a green badge with white bars), so the test needs no fixture file. */
function makePng(): Buffer {
  const width = 240;
  const height = 80;
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const inBadge = x > 4 && x < 236 && y > 4 && y < 76;
      const inBar = inBadge && y > 30 && y < 50 && x % 40 > 8 && x % 40 < 32;
      const [r, g, bl, a] = inBar ? [255, 255, 255, 255] : inBadge ? [0, 168, 132, 255] : [0, 0, 0, 0];
      raw.set([r, g, bl, a], y * (width * 4 + 1) + 1 + x * 4);
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

async function signInAs(page: Page, email: string, password: string) {
  await signIn(page, email, password);
  await page.waitForURL(/\/permits$/);
}

// The first visit of each screen loads its code; give the UI time to settle.
const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 10_000 });
const visible = (page: Page, text: string | RegExp) => poll(() => page.getByText(text).first().isVisible());

/** Picks an option of a MUI select by its label. */
async function choose(page: Page, label: string, option: string) {
  await page.getByLabel(label, { exact: true }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

describe("Admin Dashboard", () => {
  it("shows the super-admin every link, and company-users 'Access denied.'", async () => {
    const page = await b.newPage();
    await signInAs(page, DEMO.superAdmin, DEMO_PASSWORD);
    await page.goto(`${BASE_URL}/admin`);
    const links = page.getByRole("navigation", { name: "Administration" }).getByRole("link");
    await poll(() => links.count()).toBe(4);
    expect((await links.allTextContents()).join(" ")).toMatch(
      /Manage Companies.*Manage Users.*Manage Projects.*Notification Settings/,
    );
    await screenshot(page, "admin-dashboard");
    await links.filter({ hasText: "Manage Users" }).click();
    await page.waitForURL(/\/admin\/users$/);

    const user = await b.newPage();
    await signInAs(user, DEMO.companyUser, DEMO_PASSWORD);
    await user.goto(`${BASE_URL}/admin`);
    await visible(user, "Access denied.").toBe(true);
    // One access-denied text everywhere, with a way back (issue 25).
    await user.goto(`${BASE_URL}/admin/users`);
    await visible(user, "Access denied.").toBe(true);
    await user.getByRole("link", { name: "Back to home" }).click();
    await user.waitForURL(/\/permits$/);
  });

  it("shows a company-admin every link but Manage Companies", async () => {
    const page = await b.newPage();
    await signInAs(page, DEMO.companyAdmin, DEMO_PASSWORD);
    await page.goto(`${BASE_URL}/admin`);
    const links = page.getByRole("navigation", { name: "Administration" }).getByRole("link");
    await poll(() => links.count()).toBe(3);
    expect((await links.allTextContents()).join(" ")).not.toContain("Manage Companies");
  });
});

describe("companies, users and impersonation", () => {
  it(
    "creates a company with a logo, its admin, a client-user; disables a user; views as the admin and stops",
    { timeout: 240_000 },
    async () => {
      const png = makePng();
      const sa = await b.newPage();
      await signInAs(sa, DEMO.superAdmin, DEMO_PASSWORD);

      // --- a company with a logo
      await sa.goto(`${BASE_URL}/admin/companies`);
      await sa.getByRole("link", { name: "New Company" }).click();
      await sa.waitForURL(/\/admin\/companies\/new$/);
      await sa.getByLabel("Name", { exact: true }).fill(COMPANY);
      expect(await sa.getByLabel("Slug").inputValue()).toBe(`granite-peak-builders-${run}`);
      await sa.getByLabel("Address").fill("9 Quarry Road, Boulder, CO 80302");
      await sa.getByLabel("Phone").fill("(720) 555-0188");
      await sa.getByLabel("Website").fill("granitepeak.example");
      await sa.getByLabel("Contact Name").fill("Gia Stone");
      await sa.getByLabel("Contact Email").fill("not-an-email");
      await sa.getByRole("button", { name: "Save Company" }).click();
      await visible(sa, "Enter a valid email address").toBe(true);
      await sa.getByLabel("Contact Email").fill("office@granitepeak.example");
      await sa.getByLabel("Time Zone").fill("America/Denv");
      await sa.getByRole("option", { name: "America/Denver" }).click();
      await sa
        .locator('input[type="file"]')
        .setInputFiles({ name: "granite.png", mimeType: "image/png", buffer: png });
      await visible(sa, "granite.png will be uploaded when you save.").toBe(true);
      await screenshot(sa, "company-form");
      await sa.getByRole("button", { name: "Save Company" }).click();
      await sa.waitForURL(/\/admin\/companies$/);
      const row = sa.getByRole("row").filter({ hasText: COMPANY });
      await poll(() =>
        row
          .getByRole("img", { name: `${COMPANY} logo` })
          .evaluate((img: HTMLImageElement) => img.naturalWidth),
      ).toBe(240);
      await screenshot(sa, "companies-list");

      // A file that only claims to be a PNG is refused with the spec's message.
      await row.getByRole("link", { name: `Edit ${COMPANY}` }).click();
      await sa.waitForURL(/\/edit$/);
      await sa
        .locator('input[type="file"]')
        .setInputFiles({ name: "evil.png", mimeType: "image/png", buffer: Buffer.from("<svg/>") });
      await sa.getByRole("button", { name: "Save Company" }).click();
      await visible(sa, "Logo upload failed: The logo must be a PNG, JPEG or WebP image.").toBe(true);
      // The refused file is still chosen, so leaving asks first (issue 14).
      await sa.getByRole("link", { name: "Cancel" }).click();
      await sa
        .getByRole("dialog", { name: "Leave without saving?" })
        .getByRole("button", { name: "Leave without saving" })
        .click();
      await sa.waitForURL(/\/admin\/companies$/);

      // --- its company-admin, created by the super-admin
      await sa.goto(`${BASE_URL}/admin/users/new`);
      await sa.getByLabel("Email").fill(ADMIN.email);
      await sa.getByLabel("First Name").fill(ADMIN.first);
      await sa.getByLabel("Last Name").fill(ADMIN.last);
      await choose(sa, "Role", "Company Admin");
      await choose(sa, "Company", COMPANY);
      await sa.getByLabel("Title").fill("Operations Director");
      await sa.getByLabel("Password", { exact: true }).fill(ADMIN.password);
      await sa.getByLabel("Must reset password at next sign-in").uncheck();
      await screenshot(sa, "user-form");
      await sa.getByRole("button", { name: "Create User" }).click();
      await sa.waitForURL(/\/admin\/users$/);
      await visible(sa, `${ADMIN.first} ${ADMIN.last}`).toBe(true);

      // A duplicate e-mail is a field message, and nothing is created.
      await sa.goto(`${BASE_URL}/admin/users/new`);
      await sa.getByLabel("Email").fill(ADMIN.email);
      await sa.getByLabel("First Name").fill("Dup");
      await sa.getByLabel("Last Name").fill("Licate");
      await choose(sa, "Company", COMPANY);
      await sa.getByLabel("Password", { exact: true }).fill("whatever-pass-1");
      await sa.getByRole("button", { name: "Create User" }).click();
      await visible(sa, "A user with this email already exists.").toBe(true);

      // --- the company-admin sees the company's logo in the header, and only its own company
      const admin = await b.newPage();
      await signInAs(admin, ADMIN.email, ADMIN.password);
      const headerLogo = admin.getByRole("banner").getByRole("img", { name: `${COMPANY} logo` });
      await poll(() => headerLogo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(
        240,
      );
      expect(await headerLogo.evaluate((img) => img.getBoundingClientRect().height)).toBe(60);
      await screenshot(admin, "header-company-logo");
      await admin.goto(`${BASE_URL}/admin/companies`);
      await poll(() => admin.getByRole("row").count()).toBe(2);
      expect(await admin.getByRole("link", { name: "New Company" }).count()).toBe(0);
      expect(await admin.getByRole("link", { name: `Edit ${COMPANY}` }).count()).toBe(0);

      // --- a client-user limited to one client (the client made through the clients API)
      for (const name of ["Boulder County", "Flatiron Medical"]) {
        const res = await admin.request.post(`${BASE_URL}/api/clients`, {
          headers: { "x-requested-with": "permitrack" },
          data: { name },
        });
        expect(res.status()).toBe(201);
      }
      await admin.goto(`${BASE_URL}/admin/users`);
      await admin.getByRole("link", { name: "Add User" }).click();
      await admin.waitForURL(/\/admin\/users\/new$/);
      expect(await admin.getByLabel("Company", { exact: true }).count()).toBe(0);
      await admin.getByLabel("Email").fill(CLIENT_USER.email);
      await admin.getByLabel("First Name").fill(CLIENT_USER.first);
      await admin.getByLabel("Last Name").fill(CLIENT_USER.last);
      await admin.getByLabel("Role").click();
      expect(await admin.getByRole("option", { name: "Super Admin" }).count()).toBe(0);
      await admin.getByRole("option", { name: "Client User" }).click();
      await admin.getByLabel("Password", { exact: true }).fill(CLIENT_USER.password);
      await admin.getByLabel("Must reset password at next sign-in").uncheck();
      await admin.getByRole("button", { name: "Create User" }).click();
      await admin.waitForURL(/\/admin\/users$/);
      const clientRow = admin.getByRole("row").filter({ hasText: CLIENT_USER.email });
      await visible(admin, "None (sees no permits)").toBe(true);
      await clientRow.getByRole("button", { name: /Edit Clients/ }).click();
      const dialog = admin.getByRole("dialog", { name: "Edit Clients" });
      await dialog.getByLabel("Flatiron Medical").check();
      await screenshot(admin, "edit-clients-dialog");
      await dialog.getByRole("button", { name: "Save" }).click();
      await poll(() => dialog.isVisible()).toBe(false);
      await poll(() => clientRow.textContent()).toContain("Flatiron Medical");
      await screenshot(admin, "users-list");

      // --- disabling the client-user ends its open session at once, greys the row and hides Delete
      const clientSession = await request.newContext({
        baseURL: BASE_URL,
        extraHTTPHeaders: { "x-requested-with": "permitrack" },
      });
      expect(
        (
          await clientSession.post("/api/auth/sign-in", {
            data: { email: CLIENT_USER.email, password: CLIENT_USER.password },
          })
        ).status(),
      ).toBe(200);
      expect((await clientSession.get("/api/me")).status()).toBe(200);
      await clientRow.getByRole("link", { name: /^Edit / }).click();
      await admin.waitForURL(/\/admin\/users\/.+\/edit$/);
      expect(await admin.getByLabel("Email").isDisabled()).toBe(true);
      await admin.getByRole("button", { name: "Disable User" }).click();
      // Disabling asks first (issue 14): nothing has happened until it is confirmed.
      const disable = admin.getByRole("dialog", { name: "Disable user" });
      await poll(() => disable.isVisible()).toBe(true);
      expect((await clientSession.get("/api/me")).status()).toBe(200);
      await screenshot(admin, "user-disable-confirm");
      await disable.getByRole("button", { name: "Disable User" }).click();
      await visible(admin, "This user cannot sign in. Enable the account to let them back in.").toBe(true);
      expect((await clientSession.get("/api/me")).status()).toBe(401);
      await clientSession.dispose();
      await admin.goto(`${BASE_URL}/admin/users`);
      await poll(() => clientRow.getByText("Disabled", { exact: true }).isVisible()).toBe(true);
      expect(await clientRow.getByRole("button", { name: /^Delete / }).count()).toBe(0);
      await screenshot(admin, "users-list-disabled");

      // --- nobody deletes themselves; an enabled user can be deleted after 'Delete this user?'
      const adminRow = admin.getByRole("row").filter({ hasText: ADMIN.email });
      expect(await adminRow.getByRole("button", { name: /^Delete / }).count()).toBe(0);
      await clientRow.getByRole("link", { name: /^Edit / }).click();
      await admin.getByRole("button", { name: "Enable User" }).click();
      await visible(admin, "Disabling signs this user out everywhere and stops them from signing in.").toBe(
        true,
      );
      await admin.goto(`${BASE_URL}/admin/users`);
      await clientRow.getByRole("button", { name: /^Delete / }).click();
      const confirm = admin.getByRole("dialog", { name: "Delete user" });
      await visible(admin, "Delete this user?").toBe(true);
      await confirm.getByRole("button", { name: "Delete" }).click();
      await poll(() => clientRow.count()).toBe(0);

      // --- the super-admin views the app as the company-admin, then stops. (A fresh window: in
      // headless Chromium a window left in the background gets no animation frames to click in.)
      await admin.context().close();
      await sa.context().close();
      const viewer = await b.newPage();
      await signInAs(viewer, DEMO.superAdmin, DEMO_PASSWORD);
      await viewer.getByRole("button", { name: "View as another user" }).click();
      await viewer.getByRole("combobox", { name: "View as user" }).fill(ADMIN.last);
      await screenshot(viewer, "user-switcher");
      await viewer.getByRole("option", { name: new RegExp(ADMIN.last) }).click();
      await viewer.waitForURL(/\/permits$/);
      await visible(viewer, `Viewing as ${ADMIN.first} ${ADMIN.last} (${ADMIN.email})`).toBe(true);
      await poll(() =>
        viewer
          .getByRole("banner")
          .getByRole("img", { name: `${COMPANY} logo` })
          .isVisible(),
      ).toBe(true);
      // Under 'Admin' too: a company-admin's links never include Companies.
      expect(await (await mainNavLinks(viewer)).filter({ hasText: /^Companies$/ }).count()).toBe(0);
      expect(await (await mainNavLinks(viewer)).filter({ hasText: /^Users$/ }).count()).toBe(1);
      await viewer.keyboard.press("Escape");
      await visible(viewer, "All Permits").toBe(true);
      await screenshot(viewer, "impersonation-banner");
      await viewer.goto(`${BASE_URL}/admin/users`);
      await poll(() => viewer.getByRole("row").filter({ hasText: ADMIN.email }).count()).toBe(1);
      expect(await viewer.getByRole("row").filter({ hasText: DEMO.companyAdmin }).count()).toBe(0);
      await viewer.getByRole("button", { name: "Stop" }).click();
      await poll(() => viewer.getByText(/^Viewing as/).count()).toBe(0);
      await poll(async () => (await mainNavLinks(viewer)).filter({ hasText: /^Companies$/ }).count()).toBe(1);

      // --- and deletes the company: the confirmation says what goes with it
      await viewer.goto(`${BASE_URL}/admin/companies`);
      const companyRow = viewer.getByRole("row").filter({ hasText: COMPANY });
      await companyRow.getByRole("button", { name: `Delete ${COMPANY}` }).click();
      await visible(viewer, "Really delete this company?").toBe(true);
      await visible(viewer, `This permanently removes 1 user and 2 clients of ${COMPANY}`).toBe(true);
      // The dialog fades in; photograph it once it has.
      await poll(() =>
        viewer.getByRole("dialog").evaluate((el) => getComputedStyle(el.parentElement!).opacity),
      ).toBe("1");
      await screenshot(viewer, "company-delete-dialog");
      await viewer.getByRole("dialog").getByRole("button", { name: "Delete Company" }).click();
      await poll(() => companyRow.count()).toBe(0);
      await visible(viewer, "Company deleted.").toBe(true);
    },
  );

  it("shows the users table on a phone without sideways scrolling", async () => {
    const page = await b.newPage({ viewport: PHONE });
    await signInAs(page, DEMO.superAdmin, DEMO_PASSWORD);
    await page.goto(`${BASE_URL}/admin/users`);
    await poll(() => page.getByRole("row").count()).toBeGreaterThan(3);
    await screenshot(page, "users-list-phone");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
