/**
 * What the browser benchmark does in a page of /permits: notes when the first rows are painted,
 * waits for the list to settle, times a filter, a search and opening a detail, all measured in the
 * page's own clock; and signs in through the login page.
 */
import type { BrowserContext, Page } from "playwright-core";

export const ROWS = 'table[aria-label="Permits"] tbody tr.permit-row';
export const LIST = 'section[aria-label="Permits list"]';
/** The longest any one wait may take before the run fails. */
export const WAIT_MS = 30_000;

/*
 * Runs in every page before its own scripts (a string, so tsx's helpers never enter it): on
 * /permits it notes when the first permit row is in the document and when the frame with it has
 * been painted, in the page's clock (0 = navigation start). It also defines tsx's `__name` helper,
 * which the functions handed to page.evaluate below refer to once compiled.
 */
export const INIT_SCRIPT = `
window.__name = (f) => f;
if (location.pathname === "/permits") {
  const found = () => {
    const row = document.querySelector(${JSON.stringify(ROWS)});
    if (!row || row.getBoundingClientRect().height === 0) return false;
    window.__benchRowInDom = performance.now();
    requestAnimationFrame(() => setTimeout(() => { window.__benchRowPainted = performance.now(); }, 0));
    return true;
  };
  const observer = new MutationObserver(() => { if (found()) observer.disconnect(); });
  observer.observe(document, { subtree: true, childList: true });
}
`;

export interface BenchWindow {
  __benchRowPainted?: number;
}

/** Opens /permits in a new tab; resolves with the tab and navigation start → first row painted. */
export async function openPermits(
  context: BrowserContext,
  base: string,
): Promise<{ page: Page; ms: number }> {
  const page = await context.newPage();
  await page.goto(`${base}/permits`, { waitUntil: "commit" });
  const handle = await page.waitForFunction(() => (window as BenchWindow).__benchRowPainted, undefined, {
    timeout: WAIT_MS,
  });
  return { page, ms: (await handle.jsonValue()) as number };
}

/** Waits until the list shows its rows, not busy, and the summary tiles have their counts. */
export async function settle(page: Page) {
  await page.locator(`${LIST}[aria-busy="false"]:not([data-stale])`).waitFor({ timeout: WAIT_MS });
  await page.waitForFunction(
    () =>
      !!document.querySelector('[role="group"][aria-label^="Summary"]') &&
      !document.querySelector('[role="group"][aria-label^="Summary"] .MuiSkeleton-root'),
    undefined,
    { timeout: WAIT_MS },
  );
  // The toolbar's lazy parts (filters, saved views) and the tiles' request: nothing left in flight.
  await page.waitForLoadState("networkidle");
}

/**
 * In the page: runs `act` and resolves, once the list shows rows of the new view (it has fetched
 * or its rows changed, and it is neither busy nor showing the previous rows) and the next frame
 * has been painted, with the milliseconds since just before `act`.
 */
export function timeListChange(
  page: Page,
  act: { kind: "status"; value: string } | { kind: "search"; value: string },
) {
  return page.evaluate(
    async ({ act, listSelector, timeoutMs }) => {
      const list = document.querySelector(listSelector);
      if (!list) throw new Error("no permits list");
      const before = list.textContent;
      let hasFetched = false;
      const isShown = () =>
        (hasFetched || list.textContent !== before) &&
        list.getAttribute("aria-busy") === "false" &&
        !list.hasAttribute("data-stale");
      let start: number;
      if (act.kind === "status") {
        const option = Array.from(
          document.querySelectorAll<HTMLElement>('[role="listbox"] [role="option"]'),
        ).find((o) => o.textContent?.trim() === act.value);
        if (!option) throw new Error(`no Status option ${act.value}`);
        start = performance.now();
        option.click();
      } else {
        const input = document.querySelector<HTMLInputElement>('input[type="search"]');
        if (!input) throw new Error("no search box");
        const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
        start = performance.now();
        setValue.call(input, act.value);
        input.dispatchEvent(new Event("input", { bubbles: true }));
      }
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`the list did not change (${act.value})`)),
          timeoutMs,
        );
        const observer = new MutationObserver((records) => {
          if (records.some((r) => r.target === list && r.type === "attributes")) hasFetched = true;
          if (isShown()) {
            observer.disconnect();
            clearTimeout(timer);
            resolve();
          }
        });
        observer.observe(document.body, {
          subtree: true,
          childList: true,
          characterData: true,
          attributes: true,
          attributeFilter: ["aria-busy", "data-stale"],
        });
      });
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      return performance.now() - start;
    },
    { act, listSelector: LIST, timeoutMs: WAIT_MS },
  );
}

/** In the page: click the n-th row's Details link until the detail page shows that permit, painted. */
export function timeDetail(page: Page, n: number) {
  return page.evaluate(
    async ({ n, rowsSelector, timeoutMs }) => {
      const rows = document.querySelectorAll(rowsSelector);
      const row = rows[n % rows.length];
      const link = row?.querySelector<HTMLAnchorElement>('a[aria-label^="Details of"]');
      const nameCell = row?.querySelector("td.wide");
      if (!link || !nameCell) throw new Error(`no Details link in row ${n}`);
      const name = (nameCell.firstChild?.textContent ?? "").trim();
      const target = new URL(link.href).pathname;
      const isShown = () => {
        if (location.pathname !== target) return false;
        const main = document.querySelector("main") ?? document.body;
        const heading = main.querySelector("h1");
        const text = main.textContent ?? "";
        return (
          heading?.textContent?.trim() === name &&
          text.includes("Project Info") &&
          text.includes("Agency Info")
        );
      };
      const start = performance.now();
      link.click();
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${target} did not show ${name}`)), timeoutMs);
        const observer = new MutationObserver(() => {
          if (isShown()) {
            observer.disconnect();
            clearTimeout(timer);
            resolve();
          }
        });
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      return performance.now() - start;
    },
    { n, rowsSelector: ROWS, timeoutMs: WAIT_MS },
  );
}

/** Signs the context in through the login page, as a person does; the session cookie stays in it. */
export async function signInBrowser(context: BrowserContext, base: string, email: string, password: string) {
  const login = await context.newPage();
  try {
    await login.goto(`${base}/login`);
    await login.getByLabel("Email").fill(email);
    await login.getByLabel("Password", { exact: true }).fill(password);
    await login.getByRole("button", { name: "Sign In" }).click();
    await login.waitForURL((url) => !url.pathname.startsWith("/login"), { timeout: WAIT_MS });
  } finally {
    await login.close();
  }
}
