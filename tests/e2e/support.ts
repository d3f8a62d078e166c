import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import { createRequire } from "node:module";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { currentTotpStep, totpCodeAtStep } from "../../server/test-support/totp.ts";

export const BASE_URL = process.env.E2E_BASE_URL ?? "http://127.0.0.1:3000";
export const DEMO_PASSWORD = process.env.E2E_DEMO_PASSWORD ?? "";
export const SCREENSHOT_DIR = path.resolve("test-results", "screenshots");

export interface Viewport {
  width: number;
  height: number;
}
/** A phone's screen (an iPhone 12 to 14). */
export const PHONE: Viewport = { width: 390, height: 844 };

/** The machine is shared and busy: give the page time, not a fixed 1 s, to show what it should. */
export const eventually = <T>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });

/** The demo users the e2e runner seeded (see server/setup/seed-demo.ts). */
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
  newPage(opts?: { viewport?: Viewport }): Promise<Page>;
  /** The viewport of a page opened without one (`useBrowser({ viewport })`, else 1366 × 900). */
  viewport: Viewport;
}

/**
 * One Chromium per file; every page's console errors (including CSP violations) fail the test.
 * `viewport`: the size of pages opened without one (signedIn() without one too).
 */
export function useBrowser(opts: { viewport?: Viewport } = {}): BrowserFixture {
  const fixture = { viewport: opts.viewport ?? { width: 1366, height: 900 } } as BrowserFixture;
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
      const context = await fixture.browser.newContext({ viewport: opts?.viewport ?? fixture.viewport });
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

/**
 * The authenticator apps of the users who sign in with two-factor authentication: the seeded
 * super-admin (its key comes from the runner, base32 as DEMO_TOTP_SECRET takes it), and whoever a spec enrolled (`rememberTotp`).
 */
const authenticators = new Map<string, { secret: string; fromManualKey: boolean }>();
if (process.env.E2E_DEMO_TOTP_SECRET)
  authenticators.set(DEMO.superAdmin, { secret: process.env.E2E_DEMO_TOTP_SECRET, fromManualKey: true });

/** After a spec enrols a user: its later sign-ins answer the code step with codes from this key. */
export function rememberTotp(email: string, manualKey: string) {
  authenticators.set(email.toLowerCase(), { secret: manualKey, fromManualKey: true });
}

/** After a reset or turning it off: the user signs in with the password alone again. */
export function forgetTotp(email: string) {
  authenticators.delete(email.toLowerCase());
}

/**
 * Each time step is accepted once per user (issue 23): a code is "claimed" for its step before it
 * is typed, with a folder per (user, step) made atomically, shared by every e2e process on this
 * machine (across-servers.ts runs two side by side against one database). The claim takes the current step,
 * else the next one (inside the server's window), else waits for a later one, like a person who
 * waits for the next code after using one.
 */
const CLAIMS_DIR = path.join(os.tmpdir(), "permitrack-e2e-totp-claims");

async function claimTotpStep(email: string): Promise<number> {
  const key = createHash("sha256").update(email.toLowerCase()).digest("hex").slice(0, 16);
  fs.mkdirSync(CLAIMS_DIR, { recursive: true });
  for (;;) {
    const now = currentTotpStep();
    const taken = fs
      .readdirSync(CLAIMS_DIR)
      .filter((name) => name.startsWith(`${key}-`))
      .map((name) => Number(name.slice(key.length + 1)));
    for (const old of taken.filter((step) => step < now - 10))
      fs.rmSync(path.join(CLAIMS_DIR, `${key}-${old}`), { recursive: true, force: true });
    const step = Math.max(now, ...taken.map((s) => s + 1));
    if (step <= now + 1) {
      try {
        fs.mkdirSync(path.join(CLAIMS_DIR, `${key}-${step}`));
        return step;
      } catch {
        continue; // another process took it first: look again
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** A code of the user's authenticator app that no one has used yet (see claimTotpStep). */
export async function currentCode(email: string): Promise<string> {
  const app = authenticators.get(email.toLowerCase());
  if (!app) throw new Error(`no authenticator for ${email}`);
  return totpCodeAtStep(app.secret, await claimTotpStep(email), { fromManualKey: app.fromManualKey });
}

/**
 * One signed-in state per user for the whole run (issue 23): the first sign-in of a user goes
 * through /login; later ones reuse its cookies while the server still knows the session (a spec
 * that signs out, changes a password or ends an impersonation ends it, and the next sign-in is a
 * real one again). Kept in files, since vitest loads this module afresh for every spec file.
 */
const SESSIONS_DIR = path.join(
  process.env.E2E_DATA_DIR ?? os.tmpdir(),
  "e2e-sessions",
  new URL(BASE_URL).port || "80",
);
const sessionFile = (email: string, password: string) =>
  path.join(
    SESSIONS_DIR,
    `${createHash("sha256").update(`${email.toLowerCase()}\n${password}`).digest("hex").slice(0, 24)}.json`,
  );

interface Me {
  email: string;
  mustResetPassword: boolean;
  twoFactorSetupRequired: boolean;
  impersonator: unknown;
}

async function reuseSession(page: Page, email: string, password: string): Promise<boolean> {
  const file = sessionFile(email, password);
  if (!fs.existsSync(file)) return false;
  const cookies = JSON.parse(fs.readFileSync(file, "utf8")) as Parameters<BrowserContext["addCookies"]>[0];
  await page.context().addCookies(cookies);
  const me = await page.request.get(`${BASE_URL}/api/me`);
  const m = me.ok() ? ((await me.json()) as Me) : null;
  const usable =
    !!m &&
    m.email.toLowerCase() === email.toLowerCase() &&
    !m.mustResetPassword &&
    !m.twoFactorSetupRequired &&
    !m.impersonator;
  if (!usable) {
    await page.context().clearCookies();
    fs.rmSync(file, { force: true });
    return false;
  }
  // Where a sign-in lands: /login sends a signed-in user on to the permits. Done when the page is
  // whole, as after a real sign-in (which loads the session and the screen before it moves on):
  // its heading, and the navigation (the phone's menu button on a phone).
  await page.goto(`${BASE_URL}/login`);
  await page.waitForURL((url) => url.pathname !== "/login", { timeout: 15_000 });
  await page.getByRole("heading", { level: 1 }).first().waitFor({ timeout: 15_000 });
  await page
    .getByRole("navigation", { name: "Main" })
    .or(page.getByRole("button", { name: "Open navigation menu" }))
    .first()
    .waitFor({ timeout: 15_000 });
  await page.waitForLoadState("networkidle");
  return true;
}

async function keepSession(page: Page, email: string, password: string) {
  // Only a full sign-in is kept (not one held at the password-reset or two-factor set-up gate).
  // Wait until the sign-in went somewhere, or said why not (a refused one stays on /login).
  await Promise.race([
    page.waitForURL((url) => url.pathname !== "/login", { timeout: 15_000 }),
    page.getByRole("alert").first().waitFor({ timeout: 15_000 }),
  ]).catch(() => undefined);
  if (new URL(page.url()).pathname !== "/permits") return;
  fs.mkdirSync(SESSIONS_DIR, { recursive: true });
  fs.writeFileSync(sessionFile(email, password), JSON.stringify(await page.context().cookies()));
}

/**
 * Signs in on /login like a person: Email, Password, 'Sign In'; a user with an authenticator
 * (see above) then types its code into 'Authentication Code' and presses 'Verify'. A user this run
 * signed in before gets that session back instead; `fresh: true` always goes through /login.
 */
export async function signIn(page: Page, email: string, password: string, opts: { fresh?: boolean } = {}) {
  if (!opts.fresh && (await reuseSession(page, email, password))) return;
  await page.goto(`${BASE_URL}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  if (authenticators.has(email.toLowerCase())) {
    const code = page.getByLabel("Authentication Code");
    await code.waitFor({ timeout: 15_000 });
    await code.fill(await currentCode(email));
    await page.getByRole("button", { name: "Verify" }).click();
  }
  if (!opts.fresh) await keepSession(page, email, password);
}

/** A new page of `b`, signed in as `email` with the demo password, on the permits list where sign-in lands. */
export async function signedIn(b: BrowserFixture, email: string, viewport?: Viewport): Promise<Page> {
  const page = await b.newPage({ viewport: viewport ?? b.viewport });
  await signIn(page, email, DEMO_PASSWORD);
  await page.waitForURL(/\/permits$/);
  return page;
}

/**
 * The Main navigation's links, the administration ones included: on a laptop they sit under the
 * 'Admin' button (issue 14), which this opens first.
 */
export async function mainNavLinks(page: Page) {
  const nav = page.getByRole("navigation", { name: "Main" });
  const admin = nav.getByRole("button", { name: "Admin" });
  if ((await admin.count()) && (await admin.getAttribute("aria-expanded")) !== "true") await admin.click();
  return nav.getByRole("link");
}

/** Follows a Main navigation link by its exact text, opening 'Admin' when it is one of its links. */
export async function followNavLink(page: Page, label: string) {
  await (await mainNavLinks(page)).filter({ hasText: new RegExp(`^${label}$`) }).click();
}

/**
 * Saves a full-page screenshot after checking the screen with axe-core (`expectAccessible`): every
 * screen a spec photographs is also a screen the accessibility check has passed.
 */
export async function screenshot(page: Page, name: string) {
  await expectAccessible(page, name);
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/**
 * Waits until a toast (or any text) saying `text` is on screen, and fails the test if it never is:
 * every spec's "the action said so" check.
 */
export const toast = (page: Page, text: string | RegExp) =>
  eventually(() => page.getByText(text).first().isVisible()).toBe(true);

/** Closes the toast on screen, so a screenshot shows the page rather than the message over it. */
export async function dismissToasts(page: Page) {
  const close = page.locator(".MuiSnackbar-root").getByRole("button", { name: "Close" });
  if (await close.count()) await close.first().click();
  await eventually(() => page.locator(".MuiSnackbar-root").count()).toBe(0);
}

/** A full-page screenshot from the top (scrolled, the sticky header would land mid-page), without toasts. */
export async function shot(page: Page, name: string) {
  await dismissToasts(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/** What the viewport shows (an open dialog or drawer), checked for accessibility like every screenshot. */
export async function viewportShot(page: Page, name: string) {
  await dismissToasts(page);
  await expectAccessible(page, name);
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
/** WCAG 2.2 A and AA, and axe's best practices. */
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

export interface AxeFinding {
  rule: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** The serious and critical axe-core findings on the page as it is now (injected through DevTools, not the page's CSP). */
export async function axeFindings(page: Page): Promise<AxeFinding[]> {
  const injected = await page.evaluate(() => typeof (window as { axe?: unknown }).axe === "object");
  if (!injected) await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async (tags) => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{
            violations: {
              id: string;
              impact: string | null;
              help: string;
              nodes: { target: unknown[]; html: string; failureSummary?: string }[];
            }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: tags },
      resultTypes: ["violations"],
    });
    return result.violations.map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      // Where, what it is, and why (for colour contrast: the two colours and the ratio).
      targets: v.nodes
        .slice(0, 5)
        .map(
          (n) =>
            `${n.target.map(String).join(" ")} | ${n.html.slice(0, 240)} | ${(n.failureSummary ?? "").split("\n").slice(1).join(" ").trim().slice(0, 200)}`,
        ),
    }));
  }, AXE_TAGS);
  return found.filter((f) => f.impact === "serious" || f.impact === "critical");
}

/**
 * Violations known and owned elsewhere, each matched by rule and markup so narrowly that nothing
 * else slips through; each is reported on the console so it stays visible. Empty it as they are
 * fixed.
 */
const KNOWN_VIOLATIONS: { rule: string; html: RegExp; owner: string }[] = [];

function withoutKnown(findings: AxeFinding[]): AxeFinding[] {
  const left: AxeFinding[] = [];
  for (const f of findings) {
    const known = KNOWN_VIOLATIONS.find((k) => k.rule === f.rule);
    const targets = known ? f.targets.filter((t) => !known.html.test(t)) : f.targets;
    if (known && targets.length < f.targets.length)
      console.warn(`known accessibility issue (${known.owner}): ${f.rule}`);
    if (targets.length) left.push({ ...f, targets });
  }
  return left;
}

/** Fails on any serious or critical accessibility violation axe-core finds on the screen (issue 14). */
export async function expectAccessible(page: Page, screen: string) {
  // Let transitions (a dialog fading in, a snackbar, a label leaving its disabled colour) finish: axe
  // reads colours as they are painted. Endless ones (progress bars, skeletons) never finish and change
  // no colour of text. A transition can start while the others end, so until a frame starts none.
  await page.evaluate(async () => {
    const running = () =>
      document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity);
    for (let round = 0; round < 10; round++) {
      await Promise.all(running().map((a) => a.finished.catch(() => null)));
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      if (running().length === 0) return;
    }
  });
  // A finding must hold for a second to count: on two busy cores a colour can still be read
  // mid-change (a label leaving its disabled colour as its field loads) after the wait above. A
  // real violation stays; a passing moment is gone at the next look.
  let findings = withoutKnown(await axeFindings(page));
  for (let look = 0; look < 2 && findings.length; look++) {
    await page.waitForTimeout(500);
    findings = withoutKnown(await axeFindings(page));
  }
  expect(findings, `accessibility violations on ${screen}: ${JSON.stringify(findings)}`).toEqual([]);
}

/**
 * Records the API requests a page sends ("GET /api/permits/<id>") until `stop()`, which waits for
 * the network to settle first: how a write's answer is used shows in what is fetched after it.
 */
export function recordApiRequests(page: Page): { stop(): Promise<string[]> } {
  const sent: string[] = [];
  const record = (request: { method(): string; url(): string }) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/api/")) sent.push(`${request.method()} ${url.pathname}`);
  };
  page.on("request", record);
  return {
    async stop() {
      await page.waitForLoadState("networkidle");
      page.off("request", record);
      return sent;
    },
  };
}

/**
 * A nav link's text without the count 'Requests' carries while document requests await review
 * (issue 27): its badge and the words a screen reader hears, "Requests3, 3 awaiting review".
 */
export const withoutCount = (label: string) => label.replace(/\s*[\d,]+, [\d,]+ awaiting review$/, "");
