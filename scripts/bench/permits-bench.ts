/**
 * Permits benchmark (issue 3, "Performance"). On a fresh database of 100,000 permits across 50
 * companies (scripts/bench/permits-data.ts), signed in as the admin of the company with 10,000
 * permits, it measures through the real app:
 *   - GET /api/permits, first page, default sort           } median and p95 over REQUESTS
 *   - GET /api/permits?q=grading (name filter)             } requests each, after a warm-up,
 *   - GET /api/permits/summary                             } through app.inject (no network)
 *   - the time until /permits shows its first rows in headless Chromium (the server listening on
 *     127.0.0.1, the built web app): a first visit with an empty browser cache, then repeat visits.
 * Budgets: list and summary under 50 ms median on PostgreSQL; rows within 1.5 s.
 *
 * Run (both databases; PostgreSQL gets a database of its own, created and dropped here):
 *   npx tsx scripts/bench/permits-bench.ts
 * Options: --db=pg | --db=pglite, --requests=N, BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres),
 * CHROMIUM_PATH.
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { chromium } from "playwright-core";
import { buildApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import { openDatabase, type Database } from "../../server/db/client.ts";
import { migrateDatabase } from "../../server/db/migrate.ts";
import { CSRF_HEADER, CSRF_HEADER_VALUE } from "../../shared/domain/constants.ts";
import { BENCH, generatePermitsData } from "./permits-data.ts";

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const REQUESTS = Number(arg("requests") ?? 300);
const WARMUP = 30;
const PAGE_LOADS = 10;
const BUDGET_API_MS = 50;
const BUDGET_ROWS_MS = 1500;
const PG_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const kinds = (arg("db") ? [arg("db")] : ["pg", "pglite"]) as ("pg" | "pglite")[];

interface Stat {
  name: string;
  median: number;
  p95: number;
  n: number;
  budget?: number;
}
const results: { db: string; stats: Stat[] }[] = [];

function stat(name: string, samples: number[], budget?: number): Stat {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { name, median: at(0.5), p95: at(0.95), n: samples.length, budget };
}

function chromiumPath(): string {
  const found = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
    (p) => p && fs.existsSync(p),
  );
  if (!found) throw new Error("Chromium not found: set CHROMIUM_PATH");
  return found;
}

async function measure(kind: "pg" | "pglite", webDir: string) {
  console.log(`\n${kind === "pg" ? "PostgreSQL" : "PGlite"}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-bench-"));
  let database: Database | undefined;
  let dropPg: (() => Promise<void>) | undefined;
  try {
    let databaseUrl: string | undefined;
    if (kind === "pg") {
      const name = `permitrack_bench_${Date.now().toString(36)}`;
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
    try {
      const signIn = await app.inject({
        method: "POST",
        url: "/api/auth/sign-in",
        headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE },
        payload: { email: BENCH.users.admin, password: BENCH.password },
      });
      if (signIn.statusCode !== 200) throw new Error(`sign-in failed: ${signIn.body}`);
      const cookie = signIn.cookies.map((c) => `${c.name}=${c.value}`).join("; ");

      const timeRequests = async (name: string, url: string) => {
        const run = async () => {
          const t = performance.now();
          const res = await app.inject({ method: "GET", url, headers: { cookie } });
          if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
          return performance.now() - t;
        };
        for (let i = 0; i < WARMUP; i++) await run();
        const samples: number[] = [];
        for (let i = 0; i < REQUESTS; i++) samples.push(await run());
        return stat(name, samples, BUDGET_API_MS);
      };
      const stats = [
        await timeRequests("list, first page, default sort", "/api/permits"),
        await timeRequests("list, name filter (q=grading)", "/api/permits?q=grading"),
        await timeRequests("list, sorted by expiration desc", "/api/permits?sort=expiration_date&dir=desc"),
        await timeRequests("summary (tiles + charts)", "/api/permits/summary"),
      ];
      // For information (no budget): the super-admin's list spans all 100,000 permits.
      const superSignIn = await app.inject({
        method: "POST",
        url: "/api/auth/sign-in",
        headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE },
        payload: { email: BENCH.users.superAdmin, password: BENCH.password },
      });
      const superCookie = superSignIn.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
      const superSamples: number[] = [];
      for (let i = 0; i < WARMUP + REQUESTS / 3; i++) {
        const t = performance.now();
        await app.inject({ method: "GET", url: "/api/permits", headers: { cookie: superCookie } });
        if (i >= WARMUP) superSamples.push(performance.now() - t);
      }
      stats.push(stat("list, super-admin, all companies (info)", superSamples));
      const first = await app.inject({ method: "GET", url: "/api/permits", headers: { cookie } });
      const page1 = first.json() as { total: number };
      console.log(`  list total for the admin: ${page1.total} (page of 50)`);
      stats.push(...(await timeFirstRows(base)));
      results.push({ db: kind, stats });
      for (const s of stats) console.log(`  ${line(s)}`);
    } finally {
      await app.close();
    }
  } finally {
    await database?.close();
    await dropPg?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Navigation start to the first permit row on screen, in a real browser with the session cookie. */
async function timeFirstRows(base: string): Promise<Stat[]> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    // Signed in the way a person does; every visit then opens a new tab of that browser.
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    const login = await context.newPage();
    await login.goto(`${base}/login`);
    await login.getByLabel("Email").fill(BENCH.users.admin);
    await login.getByLabel("Password", { exact: true }).fill(BENCH.password);
    await login.getByRole("button", { name: "Sign In" }).click();
    await login.waitForURL(/\/permits$/);
    const signedIn = await context.storageState();
    await login.close();
    const visit = async () => {
      const page = await context.newPage();
      const t = performance.now();
      await page.goto(`${base}/permits`, { waitUntil: "commit" });
      await page
        .locator('table[aria-label="Permits"] tbody tr td')
        .first()
        .waitFor({ state: "visible", timeout: 30_000 });
      const ms = performance.now() - t;
      await page.close();
      return ms;
    };
    // First visit: a fresh browser profile (empty HTTP cache) carrying the session cookie.
    const fresh = await browser.newContext({
      viewport: { width: 1366, height: 768 },
      storageState: signedIn,
    });
    const coldPage = await fresh.newPage();
    const t = performance.now();
    await coldPage.goto(`${base}/permits`, { waitUntil: "commit" });
    await coldPage
      .locator('table[aria-label="Permits"] tbody tr td')
      .first()
      .waitFor({ state: "visible", timeout: 30_000 });
    const cold = performance.now() - t;
    await fresh.close();
    const warm: number[] = [];
    for (let i = 0; i < PAGE_LOADS; i++) warm.push(await visit());
    return [
      stat("browser: first rows, first visit", [cold], BUDGET_ROWS_MS),
      stat("browser: first rows, repeat visits", warm, BUDGET_ROWS_MS),
    ];
  } finally {
    await browser.close();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const fmt = (ms: number) => `${ms.toFixed(1).padStart(7)} ms`;
function line(s: Stat): string {
  const verdict =
    s.budget === undefined
      ? ""
      : s.median < s.budget
        ? `  ok (< ${s.budget} ms)`
        : `  OVER BUDGET (${s.budget} ms)`;
  return `${s.name.padEnd(40)} median ${fmt(s.median)}  p95 ${fmt(s.p95)}  n=${s.n}${verdict}`;
}

const webDir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-bench-web-"));
try {
  console.log(
    `Permits benchmark: ${BENCH.permits} permits in ${BENCH.companies} companies; ${REQUESTS} requests per API figure.`,
  );
  console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"})`);
  // The figures depend on what else the machine is doing; say so.
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
