/**
 * Browser benchmark: what a person waits for on the All Permits page, in headless Chromium against
 * the real server and the built web app, signed in as the admin of the company with 10,000 permits
 * (scripts/bench/permits-data.ts: 100,000 permits in 50 companies).
 *
 *   first rows        navigation start to the first permit row of /permits painted, measured in the
 *                     page (performance.now() counts from navigation start): one first visit with an
 *                     empty browser cache (cold), then repeat visits in new tabs (warm HTTP cache).
 *                     Budget 1000 ms.
 *   filter (Status)   on a settled /permits, a Status chosen in the list's Status filter: from the
 *                     option's click to the filtered rows painted (the list fetched, no longer busy
 *                     nor showing the previous rows), measured in the page. Budget 300 ms.
 *   filter (search)   the same for text put in the "Search permits" box, from the input event. For
 *                     information: the box waits for a 300 ms pause in typing before it asks.
 *   detail opened     on a settled /permits, a click on a row's "Details" link to the permit detail
 *                     page showing the permit's name as its heading and its Project/Agency Info
 *                     cards painted (the detail screen is a lazy chunk: each sample is a new tab, so
 *                     it is fetched from the HTTP cache and evaluated every time). Budget 1000 ms:
 *                     no figure is specified; it is the 1 s of the first rows and the classic limit
 *                     for a person's flow of thought staying uninterrupted.
 *   initial JS        the JavaScript files the first visit of /permits loads, until the network is
 *                     idle (the lazy filters and saved-views bar included), each body gzipped here
 *                     at level 9 (the server sends them uncompressed; the report says if it did not),
 *                     in KB of 1024 bytes. Budget 200 KB. For information: the part loaded before the
 *                     first rows, the raw size, and the whole app's JavaScript (every chunk reachable
 *                     from the entry).
 *
 * Standalone (a fresh database with the data set via lib.ts, the web app built into a temporary
 * folder, the app started in this process; PostgreSQL gets a database of its own, created and
 * dropped):
 *   npx tsx scripts/bench/browser.ts [--db=pg|pglite] [--quick]
 * Against a running server that already has the data (the `npm run bench` orchestrator):
 *   npx tsx scripts/bench/browser.ts --url=http://127.0.0.1:PORT --email=… --password=… [--db=pg|pglite]
 * (--db there only labels the figures). Options: --rounds=N (samples per figure, default 8), --json
 * (the last stdout line is lib.ts's {"figures":[{section, name, unit, db, median, p95, budget,
 * verdict, n, note}]}; budget null and verdict "info" for the figures given for information),
 * --quick (standalone: QUICK_SCALE's tenth of the data), BENCH_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres), CHROMIUM_PATH.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { STATUS_FILTER_VALUES } from "../../shared/domain/permit-list.ts";
import {
  arg,
  chromiumPath,
  createBenchDatabase,
  dbLabel,
  figure,
  hasFlag,
  isMain,
  loadAverage,
  printFigures,
  startApp,
  stats,
  type DbKind,
  type Figure,
} from "./lib.ts";
import { BENCH, generatePermitsData, QUICK_SCALE } from "./permits-data.ts";

export const BUDGETS = { firstRowsMs: 1000, filterMs: 300, detailMs: 1000, initialJsKb: 200 } as const;

/** Chromium quiet: no background traffic, no first-run work to skew the figures. */
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
];
const VIEWPORT = { width: 1366, height: 768 };
const ROWS = 'table[aria-label="Permits"] tbody tr.permit-row';
const LIST = 'section[aria-label="Permits list"]';
const SEARCH_TERMS = ["grading", "stormwater", "demolition", "electrical"];
/** The longest any one wait may take before the run fails. */
const WAIT_MS = 30_000;

/*
 * Runs in every page before its own scripts (a string, so tsx's helpers never enter it): on
 * /permits it notes when the first permit row is in the document and when the frame with it has
 * been painted, in the page's clock (0 = navigation start). It also defines tsx's `__name` helper,
 * which the functions handed to page.evaluate below refer to once compiled.
 */
const INIT_SCRIPT = `
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

interface BenchWindow {
  __benchRowPainted?: number;
}

/** Opens /permits in a new tab; resolves with the tab and navigation start → first row painted. */
async function openPermits(context: BrowserContext, base: string): Promise<{ page: Page; ms: number }> {
  const page = await context.newPage();
  await page.goto(`${base}/permits`, { waitUntil: "commit" });
  const handle = await page.waitForFunction(() => (window as BenchWindow).__benchRowPainted, undefined, {
    timeout: WAIT_MS,
  });
  return { page, ms: (await handle.jsonValue()) as number };
}

/** Waits until the list shows its rows, not busy, and the summary tiles have their counts. */
async function settle(page: Page) {
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
function timeListChange(
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
function timeDetail(page: Page, n: number) {
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

interface ScriptFile {
  url: string;
  raw: number;
  gzip: number;
  /** The server's content-encoding, if it compressed the response. */
  encoding?: string;
  beforeFirstRows: boolean;
}

const gzipSize = (body: Buffer) => zlib.gzipSync(body, { level: 9 }).length;
const isScript = (url: string, contentType: string | undefined) =>
  /javascript/.test(contentType ?? "") || /\.m?js(\?|$)/.test(new URL(url).pathname);

/**
 * The first visit, in a fresh context (empty HTTP cache) carrying the session: the time to the first
 * rows, and every JavaScript file the page loads until the network is idle.
 */
async function coldVisit(context: BrowserContext, base: string) {
  const bodies: Promise<Omit<ScriptFile, "beforeFirstRows"> | null>[] = [];
  const page0 = context.pages()[0] ?? (await context.newPage());
  page0.on("response", (res) => {
    if (!isScript(res.url(), res.headers()["content-type"])) return;
    bodies.push(
      res
        .body()
        .then((body) => ({
          url: res.url(),
          raw: body.length,
          gzip: gzipSize(body),
          encoding: res.headers()["content-encoding"],
        }))
        .catch(() => null),
    );
  });
  await page0.goto(`${base}/permits`, { waitUntil: "commit" });
  const handle = await page0.waitForFunction(() => (window as BenchWindow).__benchRowPainted, undefined, {
    timeout: WAIT_MS,
  });
  const ms = (await handle.jsonValue()) as number;
  await settle(page0);
  const ends = await page0.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .map((e) => ({ url: e.name, end: (e as PerformanceResourceTiming).responseEnd })),
  );
  const firstRowAt = await page0.evaluate(
    () => (window as { __benchRowInDom?: number }).__benchRowInDom ?? 0,
  );
  const files = (await Promise.all(bodies))
    .filter((f): f is NonNullable<typeof f> => f !== null)
    .map((f) => ({
      ...f,
      beforeFirstRows: (ends.find((e) => e.url === f.url)?.end ?? Infinity) <= firstRowAt,
    }));
  await page0.close();
  return { ms, files };
}

/** Every JavaScript chunk reachable from the entry (static imports, dynamic imports, preload lists). */
async function allAppScripts(
  base: string,
  cookie: string,
  seeds: string[],
): Promise<Omit<ScriptFile, "beforeFirstRows">[]> {
  const seen = new Map<string, Omit<ScriptFile, "beforeFirstRows">>();
  const queue = [...seeds];
  while (queue.length) {
    const url = queue.shift()!;
    if (seen.has(url)) continue;
    const res = await fetch(url, { headers: { cookie } });
    // A string that only looked like a chunk's name (unknown paths answer the app's index.html).
    if (!res.ok || !isScript(url, res.headers.get("content-type") ?? "text/html")) {
      await res.body?.cancel();
      continue;
    }
    const body = Buffer.from(await res.arrayBuffer());
    seen.set(url, { url, raw: body.length, gzip: gzipSize(body) });
    // Chunks name each other "./x.js" (relative to /assets/) or "assets/x.js" (relative to the base).
    for (const m of body.toString("utf8").matchAll(/["'`](?:\.\/|\/?assets\/)([\w$.-]+\.js)["'`]/g)) {
      const next = new URL(`/assets/${m[1]}`, base).toString();
      if (!seen.has(next)) queue.push(next);
    }
  }
  return [...seen.values()];
}

/** Signs the context in through the login page, as a person does; the session cookie stays in it. */
async function signInBrowser(context: BrowserContext, base: string, email: string, password: string) {
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

/** Every figure of the benchmark against the server at `base`, signed in as `email`. */
export async function measureBrowser(opts: {
  base: string;
  email: string;
  password: string;
  /** Samples per figure (default 8). */
  rounds?: number;
  /** The database behind the server, for the figures' label. */
  db?: DbKind | "-";
  log?: (line: string) => void;
}): Promise<{ figures: Figure[]; notes: string[] }> {
  const { base, email, password, rounds = 8, db = "-", log = console.log } = opts;
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  const notes: string[] = [];
  try {
    const login = await browser.newContext({ viewport: VIEWPORT });
    await signInBrowser(login, base, email, password);
    const signedIn = await login.storageState();
    const cookie = signedIn.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    await login.close();

    // (a, d) The first visit with an empty cache, then repeat visits in new tabs of that browser.
    const context = await browser.newContext({ viewport: VIEWPORT, storageState: signedIn });
    await context.addInitScript(INIT_SCRIPT);
    const cold = await coldVisit(context, base);
    log(`  first visit: first rows at ${cold.ms.toFixed(0)} ms, ${cold.files.length} JavaScript files`);
    const warm: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const { page, ms } = await openPermits(context, base);
      warm.push(ms);
      await page.close();
    }

    // (b) Filters: each sample a new tab (so the answer is not in the page's query cache); one
    // warm-up sample first.
    const status: number[] = [];
    const search: number[] = [];
    for (let i = -1; i < rounds; i++) {
      const value = STATUS_FILTER_VALUES[(i + STATUS_FILTER_VALUES.length) % STATUS_FILTER_VALUES.length]!;
      const { page } = await openPermits(context, base);
      await settle(page);
      await page.getByRole("combobox", { name: "Status" }).click();
      await page.getByRole("option", { name: value, exact: true }).waitFor();
      const ms = await timeListChange(page, { kind: "status", value });
      if (i >= 0) status.push(ms);
      await page.close();
    }
    for (let i = -1; i < rounds; i++) {
      const value = SEARCH_TERMS[(i + SEARCH_TERMS.length) % SEARCH_TERMS.length]!;
      const { page } = await openPermits(context, base);
      await settle(page);
      const ms = await timeListChange(page, { kind: "search", value });
      if (i >= 0) search.push(ms);
      await page.close();
    }

    // (c) A permit's details from the list: a different row each time.
    const detail: number[] = [];
    for (let i = -1; i < rounds; i++) {
      const { page } = await openPermits(context, base);
      await settle(page);
      const ms = await timeDetail(page, 3 * (i + 1));
      if (i >= 0) detail.push(ms);
      await page.close();
    }
    await context.close();

    const kb = (bytes: number) => bytes / 1024;
    const sum = (files: { gzip: number }[]) => files.reduce((n, f) => n + f.gzip, 0);
    const compressed = cold.files.filter((f) => f.encoding);
    notes.push(
      compressed.length
        ? `the server compressed ${compressed.length} of ${cold.files.length} JavaScript responses (${[...new Set(compressed.map((f) => f.encoding))].join(", ")}); sizes are gzip -9 of the decoded bodies`
        : "the server sends JavaScript uncompressed; sizes are the bodies gzipped here at level 9",
    );
    const loaded = cold.files.filter((f) => new URL(f.url).pathname.startsWith("/assets/")).map((f) => f.url);
    const everything = await allAppScripts(base, cookie, loaded);
    log("  JavaScript of the first visit of /permits (gzip -9):");
    for (const f of [...cold.files].sort((a, b) => b.gzip - a.gzip))
      log(
        `    ${new URL(f.url).pathname.padEnd(52)} ${kb(f.gzip).toFixed(1).padStart(6)} KB${f.beforeFirstRows ? "" : "  (after the first rows)"}`,
      );

    const section = "browser";
    const round = (x: number) => Math.round(x * 10) / 10;
    const ms = (name: string, samples: number[], budget: number | null) => {
      const s = stats(samples);
      const [median, p95] = [round(s.median), round(s.p95)];
      return figure({ section, db, name, unit: "ms", median, p95, budget, n: s.n });
    };
    const size = (name: string, bytes: number, budget: number | null, note?: string) =>
      figure({
        section,
        db,
        name,
        unit: "KB",
        median: round(kb(bytes)),
        p95: round(kb(bytes)),
        budget,
        n: 1,
        note,
      });
    const figures = [
      ms("first rows of /permits, first visit (empty cache)", [cold.ms], BUDGETS.firstRowsMs),
      ms("first rows of /permits, repeat visits", warm, BUDGETS.firstRowsMs),
      ms("filter applied: Status -> rows painted", status, BUDGETS.filterMs),
      ms("search typed -> rows painted (incl. 300 ms typing pause)", search, null),
      ms("detail opened: Details click -> permit painted", detail, BUDGETS.detailMs),
      size(
        "JavaScript of the first page /permits (gzip)",
        sum(cold.files),
        BUDGETS.initialJsKb,
        `${cold.files.length} files`,
      ),
      size(
        "  of it loaded before the first rows (gzip)",
        sum(cold.files.filter((f) => f.beforeFirstRows)),
        null,
      ),
      size(
        "JavaScript of the first page /permits (raw)",
        cold.files.reduce((n, f) => n + f.raw, 0),
        null,
      ),
      size("JavaScript of the whole app (gzip)", sum(everything), null, `${everything.length} files`),
    ];
    return { figures, notes };
  } finally {
    await browser.close();
  }
}

function formatTable(figures: Figure[]): string[] {
  const value = (f: Figure, x: number | null) =>
    x === null ? "-".padStart(10) : `${x.toFixed(f.unit === "KB" ? 1 : 0).padStart(7)} ${f.unit}`;
  return [
    `${"".padEnd(58)} ${"median".padStart(10)} ${"p95".padStart(10)}  ${"n".padStart(2)}  budget`,
    ...figures.map((f) => {
      const verdict =
        f.budget === null
          ? (f.note ?? "")
          : `${f.verdict === "pass" ? "ok" : "OVER"} (${f.budget} ${f.unit})${f.note ? `  ${f.note}` : ""}`;
      return `${f.name.padEnd(58)} ${value(f, f.median)} ${value(f, f.p95)}  ${String(f.n ?? "").padStart(2)}  ${verdict}`;
    }),
  ];
}

if (isMain(import.meta.url)) {
  const rounds = Number(arg("rounds") ?? 8);
  const url = arg("url");
  const t0 = performance.now();
  console.log(`Browser benchmark: /permits in headless Chromium, ${rounds} samples per figure.`);
  console.log(
    `Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}); load average ${loadAverage()}`,
  );
  let result: Awaited<ReturnType<typeof measureBrowser>>;
  if (url) {
    const email = arg("email");
    const password = arg("password");
    if (!email || !password) throw new Error("--url needs --email and --password");
    console.log(`Against the running server at ${url} as ${email}.`);
    const db = arg("db") as DbKind | undefined;
    result = await measureBrowser({ base: url.replace(/\/$/, ""), email, password, rounds, db: db ?? "-" });
  } else {
    const kind = (arg("db") ?? "pg") as DbKind;
    if (kind !== "pg" && kind !== "pglite") throw new Error("--db is pg or pglite");
    const scale = hasFlag("quick") ? QUICK_SCALE : BENCH;
    console.log(
      `Standalone on ${dbLabel(kind)}: ${scale.permits} permits in ${scale.companies} companies, as the admin of the one with ${scale.target.permits}.`,
    );
    // The web app built into a folder of its own (parallel runs must not share dist/).
    const webDir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-browser-web-"));
    try {
      const buildWeb = "../lib/build-web.mjs"; // plain JavaScript without types
      const { buildWebInto } = (await import(buildWeb)) as { buildWebInto: (outDir: string) => void };
      buildWebInto(webDir);
      const bench = await createBenchDatabase(kind, "bench_browser");
      try {
        await generatePermitsData(bench.database, console.log, scale);
        const running = await startApp(bench.database, { dataDir: bench.dataDir, webDir });
        try {
          result = await measureBrowser({
            base: running.base,
            email: BENCH.users.admin,
            password: BENCH.password,
            rounds,
            db: kind,
          });
        } finally {
          await running.close();
        }
      } finally {
        await bench.dispose();
      }
    } finally {
      fs.rmSync(webDir, { recursive: true, force: true });
    }
  }
  console.log("");
  for (const line of formatTable(result.figures)) console.log(line);
  for (const note of result.notes) console.log(`Note: ${note}.`);
  console.log(
    `Load average at the end: ${loadAverage()}; ${((performance.now() - t0) / 1000).toFixed(0)} s in all.`,
  );
  if (hasFlag("json")) printFigures(result.figures);
}
