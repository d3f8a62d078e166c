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
 * Standalone (a fresh database with the data set via bench-database.ts, the web app built into a
 * temporary folder, the app started in this process; PostgreSQL gets a database of its own, created
 * and dropped):
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
import { chromium } from "playwright-core";
import { STATUS_FILTER_VALUES } from "../../shared/domain/permit-list.ts";
import { startApp } from "./bench-app.ts";
import { createBenchDatabase } from "./bench-database.ts";
import {
  INIT_SCRIPT,
  openPermits,
  settle,
  signInBrowser,
  timeDetail,
  timeListChange,
} from "./browser-page.ts";
import { allAppScripts, coldVisit } from "./browser-scripts.ts";
import {
  arg,
  dbLabel,
  figure,
  hasFlag,
  isMain,
  loadAverage,
  printFigures,
  stats,
  type DbKind,
  type Figure,
} from "./lib.ts";
import { chromiumPath } from "./processes.ts";
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
const SEARCH_TERMS = ["grading", "stormwater", "demolition", "electrical"];
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
