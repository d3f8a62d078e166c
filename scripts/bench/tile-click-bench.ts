/**
 * Work-queue benchmark (issue 14): the time from a click on a summary tile of /permits to the
 * filtered rows on screen, for the admin of the company with 10,000 permits (the data set of
 * scripts/bench/permits-data.ts: 100,000 permits in 50 companies), in headless Chromium against the
 * real server and the built web app.
 *
 * Each sample opens /permits afresh (so the tile's rows are not in the browser's cache), waits until
 * the rows and the tiles are there, then clicks one tile and measures, inside the page, from the
 * click until the list shows the rows of that tile (the tile pressed, the list no longer busy nor
 * showing the previous rows) and the next frame has been painted. Tiles: Expiring Soon, Expired,
 * Active, In Review, Closed. Budget: median under 300 ms.
 *
 * Run (both databases; PostgreSQL gets a database of its own, created and dropped here):
 *   npx tsx scripts/bench/tile-click-bench.ts
 * Options: --db=pg | --db=pglite, --rounds=N (samples per tile, default 8), BENCH_DATABASE_URL
 * (default postgres://postgres@127.0.0.1:5432/postgres), CHROMIUM_PATH.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "playwright-core";
import { startApp } from "./bench-app.ts";
import { createBenchDatabase } from "./bench-database.ts";
import { arg, dbKinds, dbLabel, loadAverage, stats, type DbKind } from "./lib.ts";
import { chromiumPath, webBuild } from "./processes.ts";
import { BENCH, generatePermitsData } from "./permits-data.ts";

const ROUNDS = Number(arg("rounds") ?? 8);
const WARMUP_ROUNDS = 1;
const BUDGET_MS = 300;
const TILES = ["Expiring Soon", "Expired", "Active", "In Review", "Closed"] as const;

interface Stat {
  name: string;
  median: number;
  p95: number;
  max: number;
  n: number;
}
const results: { db: string; stats: Stat[] }[] = [];

const stat = (name: string, samples: number[]): Stat => ({ name, ...stats(samples) });

/** Opens /permits and waits for the first rows and the tiles' counts. */
async function openList(page: Page, base: string) {
  await page.goto(`${base}/permits`);
  await page.locator('table[aria-label="Permits"] tbody tr.permit-row').first().waitFor({ timeout: 30_000 });
  await page
    .locator('section[aria-label="Permits list"][aria-busy="false"]:not([data-stale])')
    .waitFor({ timeout: 30_000 });
  // The tiles' counts arrive after the rows; a tile is clickable before, but measure a settled page.
  await page.waitForFunction(
    () =>
      !document.querySelector('[role="group"][aria-label^="Summary"] .MuiSkeleton-root') &&
      !!document.querySelector('[role="group"][aria-label^="Summary"]'),
    undefined,
    { timeout: 30_000 },
  );
}

/** Click on the tile to its rows painted, measured in the page (no round trip to this process). */
function clickTile(page: Page, tile: string): Promise<number> {
  return page.evaluate(async (label) => {
    const group = document.querySelector('[role="group"][aria-label^="Summary"]')!;
    const button = Array.from(group.querySelectorAll("button")).find((b) =>
      (b.textContent ?? "").startsWith(label),
    );
    const list = document.querySelector('section[aria-label="Permits list"]');
    if (!button || !list) throw new Error(`no tile ${label} or no list`);
    const shown = () =>
      button.getAttribute("aria-pressed") === "true" &&
      list.getAttribute("aria-busy") === "false" &&
      !list.hasAttribute("data-stale");
    const start = performance.now();
    button.click();
    await new Promise<void>((resolve) => {
      if (shown()) return resolve();
      const observer = new MutationObserver(() => {
        if (shown()) {
          observer.disconnect();
          resolve();
        }
      });
      observer.observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    // Until the frame with the rows has been painted.
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    return performance.now() - start;
  }, tile);
}

async function measure(kind: DbKind, webDir: string) {
  console.log(`\n${dbLabel(kind)}`);
  const bench = await createBenchDatabase(kind, "bench_tiles");
  try {
    await generatePermitsData(bench.database, console.log);
    const { base, close } = await startApp(bench.database, { dataDir: bench.dataDir, webDir });
    const browser = await chromium
      .launch({ executablePath: chromiumPath(), args: ["--no-sandbox", "--disable-gpu"] })
      .catch(async (err: unknown) => {
        await close();
        throw err;
      });
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      // tsx keeps function names with a `__name` helper, which page.evaluate's copies need too.
      await context.addInitScript("window.__name = (f) => f;");
      const login = await context.newPage();
      await login.goto(`${base}/login`);
      await login.getByLabel("Email").fill(BENCH.users.admin);
      await login.getByLabel("Password", { exact: true }).fill(BENCH.password);
      await login.getByRole("button", { name: "Sign In" }).click();
      await login.waitForURL(/\/permits$/);
      await login.close();

      const samples = new Map<string, number[]>(TILES.map((t) => [t, []]));
      for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
        for (const tile of TILES) {
          const page = await context.newPage();
          await openList(page, base);
          const ms = await clickTile(page, tile);
          const rows = await page.locator('table[aria-label="Permits"] tbody tr.permit-row').count();
          if (round === WARMUP_ROUNDS) console.log(`  ${tile}: ${rows} rows on the first page`);
          if (round >= WARMUP_ROUNDS) samples.get(tile)!.push(ms);
          await page.close();
        }
      }
      const stats = TILES.map((t) => stat(`click ${t} -> rows`, samples.get(t)!));
      stats.push(stat("any tile -> rows", [...samples.values()].flat()));
      results.push({ db: kind, stats });
      for (const s of stats) console.log(`  ${line(s)}`);
    } finally {
      await browser.close();
      await close();
    }
  } finally {
    await bench.dispose();
  }
}

const fmt = (ms: number) => `${ms.toFixed(1).padStart(7)} ms`;
function line(s: Stat): string {
  const verdict = s.median < BUDGET_MS ? `ok (< ${BUDGET_MS} ms)` : `OVER BUDGET (${BUDGET_MS} ms)`;
  return `${s.name.padEnd(30)} median ${fmt(s.median)}  p95 ${fmt(s.p95)}  max ${fmt(s.max)}  n=${s.n}  ${verdict}`;
}

const webDir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-tiles-web-"));
try {
  console.log(
    `Tile-click benchmark: ${BENCH.permits} permits in ${BENCH.companies} companies; the admin of the one with ${BENCH.target.permits}; ${ROUNDS} clicks per tile.`,
  );
  console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"})`);
  console.log(`Load average at start: ${loadAverage()}`);
  (await webBuild()).buildWebInto(webDir);
  for (const kind of dbKinds()) await measure(kind, webDir);
  console.log(`\nLoad average at the end: ${loadAverage()}`);
  console.log("Summary");
  for (const r of results) for (const s of r.stats) console.log(`  ${r.db.padEnd(7)} ${line(s)}`);
} finally {
  fs.rmSync(webDir, { recursive: true, force: true });
}
