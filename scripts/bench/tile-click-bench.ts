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
 * Options: --db=pg | --db=pglite, --rounds=N (samples per tile, default 8), BENCH_PG_URL
 * (default postgres://postgres@127.0.0.1:5432/postgres), CHROMIUM_PATH.
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { chromium, type Page } from "playwright-core";
import { buildApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import { openDatabase, type Database } from "../../server/db/client.ts";
import { migrateDatabase } from "../../server/db/migrate.ts";
import { BENCH, generatePermitsData } from "./permits-data.ts";

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const ROUNDS = Number(arg("rounds") ?? 8);
const WARMUP_ROUNDS = 1;
const BUDGET_MS = 300;
const TILES = ["Expiring Soon", "Expired", "Active", "In Review", "Closed"] as const;
const PG_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const kinds = (arg("db") ? [arg("db")] : ["pg", "pglite"]) as ("pg" | "pglite")[];

interface Stat {
  name: string;
  median: number;
  p95: number;
  max: number;
  n: number;
}
const results: { db: string; stats: Stat[] }[] = [];

function stat(name: string, samples: number[]): Stat {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { name, median: at(0.5), p95: at(0.95), max: sorted.at(-1)!, n: samples.length };
}

function chromiumPath(): string {
  const found = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
    (p) => p && fs.existsSync(p),
  );
  if (!found) throw new Error("Chromium not found: set CHROMIUM_PATH");
  return found;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

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

async function measure(kind: "pg" | "pglite", webDir: string) {
  console.log(`\n${kind === "pg" ? "PostgreSQL" : "PGlite"}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-tiles-"));
  let database: Database | undefined;
  let dropPg: (() => Promise<void>) | undefined;
  try {
    let databaseUrl: string | undefined;
    if (kind === "pg") {
      const name = `permitrack_tiles_${Date.now().toString(36)}`;
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`create database ${name}`);
      const url = new URL(PG_URL);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
      dropPg = async () => {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      };
    }
    database = await openDatabase({ databaseUrl, dataDir });
    await migrateDatabase(database);
    await generatePermitsData(database, console.log);

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const config = loadConfig({
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      LOG_LEVEL: "silent",
      SCHEDULER: "off",
      SESSION_SECRET: "bench-secret-bench-secret-bench-secret-01",
      API_RATE_LIMIT: "1000000",
      SIGNIN_IP_LIMIT: "1000",
      PUBLIC_URL: base,
    });
    const app = await buildApp({ config, database, webDir });
    await app.listen({ host: "127.0.0.1", port });
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: ["--no-sandbox", "--disable-gpu"],
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
      await app.close();
    }
  } finally {
    await database?.close();
    await dropPg?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
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
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
  console.log(`Load average at start: ${load()}`);
  // The shared build helper is plain JavaScript without types.
  const buildWeb = "../lib/build-web.mjs";
  const { buildWebInto } = (await import(buildWeb)) as { buildWebInto: (outDir: string) => void };
  buildWebInto(webDir);
  for (const kind of kinds) await measure(kind, webDir);
  console.log(`\nLoad average at the end: ${load()}`);
  console.log("Summary");
  for (const r of results) for (const s of r.stats) console.log(`  ${r.db.padEnd(7)} ${line(s)}`);
} finally {
  fs.rmSync(webDir, { recursive: true, force: true });
}
