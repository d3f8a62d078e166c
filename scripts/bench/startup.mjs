// Start-up figures: the time from `npm start` to a ready /readyz and the server's RSS at that moment,
// on a new data directory (the embedded database is made by a child process, decision 0015) and on an
// existing one, three runs each, plus one new directory with no database template on the machine yet
// (the first ever: initdb runs); and the gzip size of the JavaScript the login page loads (Chromium).
// Budgets: ready within 5 s, RSS under 300 MB, login page JavaScript under 200 KB gzip; "pass" is
// judged on the median (p95 is printed beside it).
//
// Run: node scripts/bench/startup.mjs [--json] [--runs=N]
//   (needs Chromium: /usr/bin/chromium or CHROMIUM_PATH). The web app and the server bundle are built
//   first, outside the timings. With --json the last line of stdout is {"figures":[...]}, one entry per
//   figure with name, unit, median, p95, budget, verdict (pass/over, judged on the median), n, runs and
//   note; runStartupBench() returns the same object.
//   It empties the database template cache (node_modules/.cache/permitrack) to time the first start.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { chromium } from "playwright-core";
import { buildServerIfStale } from "../lib/build-server.mjs";
import { buildWebIfStale, root } from "../lib/build-web.mjs";

const BUDGET = { readyMs: 5000, rssMb: 300, jsKb: 200 };
/** Where the database-creating child keeps its template (server/db/pglite-create.child.mjs). */
const templateCache = path.join(root, "node_modules", ".cache", "permitrack");

function descendants(pid) {
  const kids = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) kids.push(Number(entry), ...descendants(Number(entry)));
    } catch {
      /* process ended */
    }
  }
  return kids;
}
const rssMb = (pid) =>
  Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024;
/** The serving process: the server bundle `npm start` runs (or server/main.ts under tsx). */
const isServer = (pid) => {
  try {
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return cmd.includes("build/server/main.mjs") || cmd.includes("server/main.ts");
  } catch {
    return false;
  }
};
const loadAverage = () => os.loadavg()[0].toFixed(1);

async function startOnce(dataDir, port) {
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn("npm", ["start", "--silent"], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      ADMIN_EMAIL: "bench@example.com",
      ADMIN_PASSWORD: "bench-password-1",
      LOG_LEVEL: "warn",
      SCHEDULER: "off",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (;;) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (child.exitCode !== null) throw new Error("npm start exited");
    await new Promise((r) => setTimeout(r, 20));
  }
  const ms = performance.now() - t0;
  const server = descendants(child.pid).find(isServer);
  const rss = server ? rssMb(server) : NaN;
  return {
    base,
    ms,
    rss,
    server,
    stop: () =>
      new Promise((r) => {
        child.on("exit", r);
        process.kill(server ?? child.pid, "SIGTERM");
      }),
  };
}

async function loginPageJs(base) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
  });
  const page = await browser.newPage();
  const scripts = [];
  page.on("response", async (res) => {
    if (res.request().resourceType() === "script") scripts.push({ url: res.url(), body: await res.body() });
  });
  await page.goto(`${base}/login`, { waitUntil: "networkidle" });
  await page.getByRole("button", { name: "Sign In" }).waitFor();
  await browser.close();
  const files = scripts.map((s) => ({
    file: new URL(s.url).pathname,
    raw: s.body.length,
    gzip: zlib.gzipSync(s.body, { level: 9 }).length,
  }));
  return { files, raw: files.reduce((a, f) => a + f.raw, 0), gzip: files.reduce((a, f) => a + f.gzip, 0) };
}

/** Nearest-rank percentile. */
function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}
const round = (v, digits = 0) => Number(v.toFixed(digits));

/** A figure as scripts/bench/run.ts reads it; the verdict is judged on the median. */
function figure({ name, unit, values, budget, note, digits = 0 }) {
  const median = round(percentile(values, 50), digits);
  const p95 = round(percentile(values, 95), digits);
  const verdict = budget == null ? "info" : median <= budget ? "pass" : "over";
  const runs = values.map((v) => round(v, digits));
  return { name, unit, median, p95, budget, verdict, n: values.length, runs, note };
}

/**
 * Runs the start-up benchmark; `log` gets the human-readable lines. Returns { figures }: ready time
 * and RSS on a new and on an existing data directory (`runs` starts each), and the login page's gzip JS.
 */
export async function runStartupBench({ runs = 3, log = console.log } = {}) {
  const tb = performance.now();
  buildWebIfStale();
  const tw = performance.now();
  buildServerIfStale();
  log(
    `node ${process.version}, ${os.cpus().length} cores, load average ${loadAverage()}; web build check ` +
      `${((tw - tb) / 1000).toFixed(1)} s, server bundle check ${((performance.now() - tw) / 1000).toFixed(1)} s`,
  );
  const port = 3900 + Math.floor(Math.random() * 90);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-bench-"));
  const fresh = [];
  const existing = [];
  let js;
  let settled = NaN;
  let cold;
  try {
    // The first new directory on a machine runs initdb in the child (~4 s of CPU) and keeps a template;
    // later ones copy it. Measured apart: the template cache is emptied first.
    for (const entry of fs.existsSync(templateCache) ? fs.readdirSync(templateCache) : [])
      if (entry.startsWith("pglite-"))
        fs.rmSync(path.join(templateCache, entry), { recursive: true, force: true });
    cold = await startOnce(path.join(scratch, "first"), port);
    await cold.stop();
    for (let i = 0; i < runs; i++) {
      const run = await startOnce(path.join(scratch, `new-${i}`), port);
      await run.stop();
      fresh.push(run);
    }
    const existingDir = path.join(scratch, "new-0");
    for (let i = 0; i < runs; i++) {
      const run = await startOnce(existingDir, port);
      if (i === 0) {
        js = await loginPageJs(run.base);
        settled = run.server ? rssMb(run.server) : NaN;
      }
      await run.stop();
      existing.push(run);
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }

  const copied = "copied from the template that the first creation kept";
  // No budget: `npm start` makes the template while it builds the web app (scripts/start.mjs), so the
  // first start after the web build copies it (the figure above). This is the start that finds no
  // template at all: `npm run serve` on a new machine, or after an upgrade without a rebuild.
  const initdb =
    "for information: initdb in the child, when no template exists (npm start makes it during the web build)";
  const [ms, mb] = [(runs) => runs.map((r) => r.ms), (runs) => runs.map((r) => r.rss)];
  const start = "embedded start";
  const figures = [
    {
      name: `${start}, new data directory: ready`,
      unit: "ms",
      values: ms(fresh),
      budget: BUDGET.readyMs,
      note: copied,
    },
    {
      name: `${start}, new data directory: RSS`,
      unit: "MB",
      values: mb(fresh),
      budget: BUDGET.rssMb,
      note: copied,
    },
    {
      name: `${start}, first new data directory: ready`,
      unit: "ms",
      values: ms([cold]),
      budget: null,
      note: initdb,
    },
    {
      name: `${start}, first new data directory: RSS`,
      unit: "MB",
      values: mb([cold]),
      budget: BUDGET.rssMb,
      note: initdb,
    },
    {
      name: `${start}, existing data directory: ready`,
      unit: "ms",
      values: ms(existing),
      budget: BUDGET.readyMs,
    },
    {
      name: `${start}, existing data directory: RSS`,
      unit: "MB",
      values: mb(existing),
      budget: BUDGET.rssMb,
    },
    {
      name: "initial JavaScript (gzip)",
      unit: "KB",
      values: [js.gzip / 1024],
      budget: BUDGET.jsKb,
      digits: 1,
    },
  ].map(figure);
  for (const f of figures)
    log(
      `${f.name}: median ${f.median} ${f.unit}, p95 ${f.p95} ${f.unit} (runs ${f.runs.join(", ")}), ` +
        (f.budget == null
          ? "no budget"
          : `budget ${f.budget} ${f.unit}: ${f.verdict === "pass" ? "pass" : "OVER"}`) +
        (f.note ? ` (${f.note})` : ""),
    );
  log(`server RSS after serving the login page (existing directory): ${settled.toFixed(0)} MB`);
  log(`login page JavaScript: ${js.files.length} files, ${(js.raw / 1024).toFixed(1)} KB raw`);
  for (const f of [...js.files].sort((a, b) => b.gzip - a.gzip).slice(0, 5))
    log(`  ${f.file}  ${(f.gzip / 1024).toFixed(1)} KB gzip`);
  log(`load average at the end ${loadAverage()}`);
  return { figures };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const json = process.argv.includes("--json");
  const runsArg = process.argv.find((a) => a.startsWith("--runs="));
  const result = await runStartupBench({ runs: runsArg ? Number(runsArg.slice(7)) : 3 });
  if (json) console.log(JSON.stringify(result));
}
