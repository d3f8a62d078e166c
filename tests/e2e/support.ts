import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect } from "vitest";

export const BASE_URL = process.env.E2E_BASE_URL ?? "http://127.0.0.1:3000";
export const DEMO_PASSWORD = process.env.E2E_DEMO_PASSWORD ?? "";
export const SCREENSHOT_DIR = path.resolve("test-results", "screenshots");

/** The demo users the e2e runner seeded (see server/db/seed-demo.ts). */
export const DEMO = {
  superAdmin: "super.admin@permitrack.example",
  companyAdmin: "dana.whitfield@summit-ridge.example",
  companyUser: "sam.baker@summit-ridge.example",
  clientUser: "jordan.ellis@summit-ridge.example",
  otherCompanyAdmin: "maya.chen@bayline-civil.example",
} as const;

function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(
    Boolean,
  ) as string[];
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) throw new Error("Chromium not found: install Debian's chromium or set CHROMIUM_PATH");
  return found;
}

export interface BrowserFixture {
  browser: Browser;
  /** A fresh context (own cookies and storage) and page; console errors and CSP violations are collected. */
  newPage(opts?: { viewport?: { width: number; height: number } }): Promise<Page>;
}

/** One Chromium per file; every page's console errors (including CSP violations) fail the test. */
export function useBrowser(): BrowserFixture {
  const fixture = {} as BrowserFixture;
  let contexts: BrowserContext[] = [];
  let problems: string[] = [];
  beforeAll(async () => {
    fixture.browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    fixture.newPage = async (opts) => {
      const context = await fixture.browser.newContext({
        viewport: opts?.viewport ?? { width: 1366, height: 900 },
      });
      contexts.push(context);
      const page = await context.newPage();
      page.on("console", (msg) => {
        const text = msg.text();
        // A failed fetch the app handles (401 before sign-in, a 4xx shown to the user) is logged by the browser; not a defect.
        if (
          msg.type() === "error" &&
          !/Failed to load resource: the server responded with a status of 4\d\d/.test(text)
        ) {
          problems.push(text);
        }
      });
      page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
      return page;
    };
  });
  afterEach(async () => {
    for (const c of contexts) await c.close();
    contexts = [];
    const found = problems;
    problems = [];
    expect(found, "browser console errors or CSP violations").toEqual([]);
  });
  afterAll(async () => {
    await fixture.browser?.close();
  });
  return fixture;
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${BASE_URL}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
