/**
 * `npm run bench`: every benchmark, on PostgreSQL and on PGlite, in one command (performance issue,
 * part 5). It generates the data, runs each section, prints one table and writes it as JSON to
 * bench/results/<time>.json, and to bench/results/latest.json when the run was complete (not --quick,
 * --only nor --db).
 *
 * Per database, on one generated data set (100,000 permits in 50 companies, the admin of the one with
 * 10,000 asking; scripts/bench/permits-data.ts):
 *   api            each hot endpoint's API median against the replay of its own statements, and its
 *                  statements per request (scripts/bench/api-replay.ts); EXPLAIN of the list's, the
 *                  summary's and the dashboard's statements in bench/results/plans.txt (PostgreSQL)
 *   throughput     requests/s and latency with 50 concurrent clients against the real server in a
 *                  child process (scripts/bench/throughput.ts)
 *   browser        headless Chromium against that server: first rows of /permits, a filter, a detail,
 *                  the first page's JavaScript (scripts/bench/browser.ts --url=…, run if it exists)
 *   profile        only with --profile (or --only=profile): a CPU profile of the server under the
 *                  list's load, summarized in bench/results/profile.txt (scripts/bench/profile.ts);
 *                  on the first database only (PostgreSQL, unless --db=pglite)
 *   bonds          the Bonds page's aggregates, the bonds added to the same data set, for information
 *                  (scripts/bench/bonds-aggregates.ts)
 *   import-export  a 10,000-row CSV import and the export of those permits (scripts/bench/import-export.ts)
 * and on a database of its own:
 *   reminders      the reminder sweep and send over 1,000,000 permits (PGlite: 100,000, as the figures'
 *                  names say) in a child process, so its RSS is its own (scripts/bench/reminders-sweep.ts)
 * and once (the embedded database, as `npm start` runs):
 *   startup        `npm start` to ready with an empty and an existing data directory, the server's RSS
 *                  and the login page's JavaScript (scripts/bench/startup.mjs)
 *
 * Budgets are PostgreSQL's (PGlite's figures are reported beside them, as information), except the
 * statements per request (the same code sends the same statements to both) and the start-up, which
 * is the embedded database's. A figure over its budget is printed as "over"; the command exits 0
 * when every section ran (1 when one failed), whatever the verdicts.
 *
 * Options: --db=pg|pglite (default both), --only=section,… , --profile (adds the profile section),
 * --quick (a tenth of the data and shorter runs: a smoke test of the command, not figures to judge).
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres): the bench creates its own
 * databases there and drops them. CHROMIUM_PATH for the browser sections.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchApiReplay, TIMED_MS, WARMUP_MS } from "./api-replay.ts";
import { addBondsData, benchBonds } from "./bonds-aggregates.ts";
import { benchImportExport } from "./import-export.ts";
import {
  arg,
  builtWebDir,
  createBenchDatabase,
  dbLabel,
  figure,
  hasFlag,
  loadAverage,
  parseFiguresLine,
  root,
  runCommand,
  ServerChild,
  type BenchDatabase,
  type DbKind,
  type Figure,
} from "./lib.ts";
import { BENCH, benchTargets, generatePermitsData, QUICK_SCALE } from "./permits-data.ts";
import { profileServer } from "./profile.ts";
import { benchThroughput } from "./throughput.ts";

const SECTIONS = [
  "api",
  "throughput",
  "browser",
  "profile",
  "bonds",
  "import-export",
  "reminders",
  "startup",
] as const;
type Section = (typeof SECTIONS)[number];

const quick = hasFlag("quick");
const dbArg = arg("db");
if (dbArg && dbArg !== "pg" && dbArg !== "pglite") throw new Error("--db is pg or pglite");
const dbs: DbKind[] = dbArg ? [dbArg as DbKind] : ["pg", "pglite"];
const only = arg("only")
  ?.split(",")
  .map((s) => s.trim())
  .filter(Boolean);
for (const s of only ?? [])
  if (!SECTIONS.includes(s as Section))
    throw new Error(`--only: unknown section ${s} (${SECTIONS.join(", ")})`);
const sections = new Set<Section>(
  only ? (only as Section[]) : SECTIONS.filter((s) => s !== "profile" || hasFlag("profile")),
);
if (hasFlag("profile")) sections.add("profile");

const SIZES = quick
  ? {
      scale: QUICK_SCALE,
      apiRequests: 20,
      loadSeconds: 3,
      warmupSeconds: 1,
      browserRounds: 3,
      bondsRequests: 20,
      importRows: 2_000,
      importRuns: 1,
      reminders: { pg: { permits: 100_000, companies: 100 }, pglite: { permits: 20_000, companies: 20 } },
    }
  : {
      scale: BENCH,
      apiRequests: 300,
      loadSeconds: 10,
      warmupSeconds: 2,
      browserRounds: 8,
      bondsRequests: 100,
      importRows: 10_000,
      importRuns: 3,
      reminders: {
        pg: { permits: 1_000_000, companies: 1000 },
        pglite: { permits: 100_000, companies: 100 },
      },
    };

const resultsDir = path.join(root, "bench", "results");
fs.mkdirSync(resultsDir, { recursive: true });
const figures: Figure[] = [];
const notes: string[] = [];
const sectionSeconds: { section: string; db: string; seconds: number }[] = [];
const started = new Date();
const t0 = performance.now();

/** Budgets judged on PostgreSQL only: on PGlite these sections' figures are information. */
const PG_BUDGETS = new Set([
  "api",
  "throughput",
  "browser",
  "import-export",
  "reminders",
  "bonds",
  "profile",
]);

/** A figure from another process's --json line, made whole and judged as ours are. */
function adopt(raw: Partial<Figure>, section: string, db: DbKind | "-"): Figure {
  const base = {
    section: raw.section ?? section,
    name: raw.name ?? "(unnamed)",
    unit: raw.unit ?? "",
    db: raw.db && raw.db !== "-" ? raw.db : db,
    median: raw.median ?? null,
    p95: raw.p95 ?? null,
    budget: raw.budget ?? null,
    budgetKind: raw.budgetKind,
    judged: raw.judged,
    n: raw.n,
    note: raw.note,
  };
  return figure(
    raw.verdict === "error" || raw.verdict === "skipped" ? { ...base, verdict: raw.verdict } : base,
  );
}

/** PGlite's figures beside PostgreSQL's budgets: kept, but not judged. */
function judgeForDb(f: Figure): Figure {
  const statements = f.unit === "statements";
  if (
    f.db === "pglite" &&
    PG_BUDGETS.has(f.section) &&
    !statements &&
    (f.verdict === "pass" || f.verdict === "over")
  )
    return { ...f, verdict: "info" };
  return f;
}

/** Runs one section; a failure is a row of the table (and exit code 1), and the run goes on. */
async function section(name: Section, db: DbKind | "-", fn: () => Promise<Figure[]>): Promise<void> {
  if (!sections.has(name)) return;
  const t = performance.now();
  console.log(
    `\n== ${name} (${db === "-" ? "no database of ours" : dbLabel(db)})  load average ${loadAverage()}`,
  );
  try {
    figures.push(...(await fn()).map(judgeForDb));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    console.error(`  ${name} failed: ${err instanceof Error ? (err.stack ?? message) : message}`);
    figures.push(
      figure({
        section: name,
        db,
        name: `failed: ${message.split("\n")[0]!.slice(0, 100)}`,
        unit: "",
        median: null,
        verdict: "error",
      }),
    );
  } finally {
    const seconds = (performance.now() - t) / 1000;
    sectionSeconds.push({ section: name, db, seconds });
    console.log(`  (${seconds.toFixed(0)} s)`);
  }
}

const browserScript = path.join(root, "scripts", "bench", "browser.ts");

/** The browser benchmark against a running server, as a process of its own (its --json line). */
async function browserFigures(server: ServerChild, db: DbKind): Promise<Figure[]> {
  if (!fs.existsSync(browserScript)) {
    notes.push("scripts/bench/browser.ts does not exist: the browser figures were not measured");
    return [
      figure({
        section: "browser",
        db,
        name: "not run: scripts/bench/browser.ts missing",
        unit: "",
        median: null,
        verdict: "skipped",
      }),
    ];
  }
  const { code, stdout } = await runCommand(process.execPath, [
    "--import",
    "tsx",
    browserScript,
    `--url=${server.base}`,
    `--email=${BENCH.users.admin}`,
    `--password=${BENCH.password}`,
    `--db=${db}`,
    `--rounds=${SIZES.browserRounds}`,
    "--json",
  ]);
  const parsed = parseFiguresLine(stdout);
  if (code !== 0 || !parsed)
    throw new Error(`scripts/bench/browser.ts exited ${code}${parsed ? "" : " without a --json line"}`);
  for (const line of stdout.split("\n"))
    if (line.startsWith("Note: ")) notes.push(`browser (${db}): ${line.slice(6)}`);
  return parsed.map((f) => adopt(f, "browser", db));
}

/** The reminder sweep in a process of its own (its RSS is the sweep's alone). */
async function reminderFigures(db: DbKind): Promise<Figure[]> {
  const size = SIZES.reminders[db];
  const { code, stdout } = await runCommand(process.execPath, [
    "--import",
    "tsx",
    path.join(root, "scripts", "bench", "reminders-sweep.ts"),
    `--db=${db}`,
    `--permits=${size.permits}`,
    `--companies=${size.companies}`,
    "--json",
  ]);
  const parsed = parseFiguresLine(stdout);
  if (code !== 0 || !parsed)
    throw new Error(`reminders-sweep.ts exited ${code}${parsed ? "" : " without a --json line"}`);
  return parsed.map((f) => adopt(f, "reminders", db));
}

/**
 * startup.mjs: its --json line when it prints one; else the lines it prints today, read one by one
 * (each figure it does not print is a row saying so).
 */
async function startupFigures(): Promise<Figure[]> {
  const { code, stdout } = await runCommand(process.execPath, [
    path.join(root, "scripts", "bench", "startup.mjs"),
    "--json",
  ]);
  if (code !== 0) throw new Error(`startup.mjs exited ${code}`);
  const parsed = parseFiguresLine(stdout);
  if (parsed) return parsed.map((f) => adopt(f, "startup", "pglite"));
  const common = { section: "startup", db: "pglite" } as const;
  const found = (re: RegExp) => {
    const m = re.exec(stdout);
    return m ? m.slice(1).map(Number) : null;
  };
  const out: Figure[] = [];
  const missing = (name: string) =>
    out.push(
      figure({
        ...common,
        name: `${name}: not in startup.mjs's output`,
        unit: "",
        median: null,
        verdict: "error",
      }),
    );
  for (const [label, name] of [
    ["empty data directory", "npm start -> ready, empty data directory"],
    ["existing data directory", "npm start -> ready, existing data directory"],
  ] as const) {
    const m = found(new RegExp(`ready \\(${label}\\): ([\\d.]+) s, server RSS at ready (\\d+) MB`));
    if (!m) {
      missing(name);
      continue;
    }
    out.push(
      figure({ ...common, name, unit: "s", median: m[0]!, budget: 5 }),
      figure({ ...common, name: `server RSS at ready, ${label}`, unit: "MB", median: m[1]!, budget: 300 }),
    );
  }
  const settled = found(/server RSS after serving the login page: (\d+) MB/);
  if (settled)
    out.push(
      figure({
        ...common,
        name: "server RSS after serving the login page",
        unit: "MB",
        median: settled[0]!,
        budget: 300,
      }),
    );
  else missing("server RSS after serving the login page");
  const js = found(/login page JavaScript: (\d+) files, ([\d.]+) KB raw, ([\d.]+) KB gzip/);
  if (js)
    out.push(
      figure({
        ...common,
        name: "JavaScript of the login page (gzip)",
        unit: "KB",
        median: js[2]!,
        note: `${js[0]} files`,
      }),
    );
  else missing("JavaScript of the login page");
  notes.push("startup.mjs printed no --json line: its figures were read from its text output");
  return out;
}

/** Every section that uses the permits data set, on one database. */
async function onDatabase(db: DbKind, webDir: string) {
  const needsData = ["api", "throughput", "browser", "profile", "bonds", "import-export"].some((s) =>
    sections.has(s as Section),
  );
  if (!needsData) return;
  const t = performance.now();
  console.log(
    `\n######## ${dbLabel(db)}: ${SIZES.scale.permits.toLocaleString()} permits in ${SIZES.scale.companies} companies`,
  );
  let bench: BenchDatabase;
  try {
    bench = await createBenchDatabase(db, "bench");
    await generatePermitsData(bench.database, console.log, SIZES.scale);
  } catch (err) {
    figures.push(
      figure({
        section: "data",
        db,
        name: `failed: ${(err as Error).message.slice(0, 100)}`,
        unit: "",
        median: null,
        verdict: "error",
      }),
    );
    console.error(err);
    return;
  }
  sectionSeconds.push({ section: "data", db, seconds: (performance.now() - t) / 1000 });
  try {
    const { permitId } = await benchTargets(bench.database);
    await section("api", db, () =>
      benchApiReplay(bench, {
        requests: SIZES.apiRequests,
        warmupMs: quick ? 0 : WARMUP_MS,
        timedMs: quick ? 0 : TIMED_MS,
        plansFile: db === "pg" ? path.join(resultsDir, "plans.txt") : undefined,
      }),
    );

    // The server as a child process: on PGlite it needs the directory to itself.
    if (["throughput", "browser", "profile"].some((s) => sections.has(s as Section))) {
      await bench.suspend();
      if (sections.has("throughput") || sections.has("browser")) {
        let server: ServerChild | undefined;
        try {
          server = await ServerChild.start({ bench, webDir });
        } catch (err) {
          await section("throughput", db, () => Promise.reject(err));
          await section("browser", db, () => Promise.reject(err));
        }
        if (server) {
          try {
            await section("throughput", db, () =>
              benchThroughput(server, {
                db,
                permitId,
                seconds: SIZES.loadSeconds,
                warmupSeconds: SIZES.warmupSeconds,
              }),
            );
            await section("browser", db, () => browserFigures(server, db));
          } finally {
            await server.stop();
          }
        }
      }
      // One profile (profile.txt): the first database's, PostgreSQL's unless --db=pglite.
      if (db === dbs[0])
        await section("profile", db, () =>
          profileServer(bench, {
            webDir,
            outDir: resultsDir,
            seconds: SIZES.loadSeconds,
            warmupSeconds: SIZES.warmupSeconds,
          }),
        );
      await bench.resume();
    }

    await section("bonds", db, async () => {
      const { suretyId } = await addBondsData(bench.database, console.log);
      return benchBonds(bench.database, {
        kind: db,
        dataDir: bench.dataDir,
        suretyId,
        requests: SIZES.bondsRequests,
      });
    });
    await section("import-export", db, () =>
      benchImportExport(bench.database, {
        kind: db,
        dataDir: bench.dataDir,
        rows: SIZES.importRows,
        runs: SIZES.importRuns,
      }),
    );
  } finally {
    await bench.dispose();
  }
}

// ---------------------------------------------------------------------------------------------
// The table

const UNIT_DECIMALS: Record<string, number> = { ms: 1, s: 2, x: 3, "req/s": 0, statements: 0, MB: 0, KB: 1 };
function value(x: number | null | undefined, unit: string): string {
  if (x === null || x === undefined) return "";
  if (!Number.isFinite(x)) return String(x);
  const decimals = unit === "ms" && x >= 100 ? 0 : (UNIT_DECIMALS[unit] ?? 1);
  return x.toFixed(decimals);
}
const budgetText = (f: Figure | undefined) =>
  !f || f.budget === null
    ? ""
    : `${f.budgetKind === "min" ? ">=" : "<="}${value(f.budget, f.unit)}${f.judged === "p95" ? " p95" : ""}`;

/** One row per figure; PostgreSQL's and PGlite's side by side; the verdict is the judged one's. */
function table(all: Figure[]): string {
  const rows: {
    section: string;
    name: string;
    unit: string;
    pg?: Figure;
    pglite?: Figure;
    other?: Figure;
  }[] = [];
  for (const f of all) {
    const key = (r: (typeof rows)[number]) =>
      r.section === f.section && r.name === f.name && r.unit === f.unit;
    let row = rows.find(key);
    if (!row) rows.push((row = { section: f.section, name: f.name, unit: f.unit }));
    if (f.db === "pg") row.pg = f;
    else if (f.db === "pglite") row.pglite = f;
    else row.other = f;
  }
  const verdictOf = (r: (typeof rows)[number]) => {
    const judged = [r.pg, r.pglite, r.other].filter((f): f is Figure => !!f);
    const order = ["error", "over", "pass", "skipped", "info"] as const;
    return order.find((v) => judged.some((f) => f.verdict === v)) ?? "";
  };
  const header = [
    "section",
    "figure",
    "unit",
    "PG median",
    "PG p95",
    "PGlite median",
    "PGlite p95",
    "budget",
    "verdict",
  ];
  const lines = rows.map((r) => {
    const judged = r.pg ?? r.other ?? r.pglite;
    // A budget beside information only (PGlite's figures) stands in parentheses.
    const budget =
      budgetText(judged) && judged?.verdict === "info" ? `(${budgetText(judged)})` : budgetText(judged);
    const verdict = verdictOf(r);
    return [
      r.section,
      r.name,
      r.unit,
      value((r.pg ?? r.other)?.median, r.unit),
      value((r.pg ?? r.other)?.p95, r.unit),
      value(r.pglite?.median, r.unit),
      value(r.pglite?.p95, r.unit),
      budget,
      verdict === "over" ? "OVER" : verdict,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const numeric = new Set([3, 4, 5, 6]);
  const fmt = (cells: string[]) =>
    cells
      .map((c, i) => (numeric.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [fmt(header), widths.map((w) => "-".repeat(w)).join("  "), ...lines.map(fmt)].join("\n");
}

function git(args: string[]): string {
  try {
    return execFileSync("git", args, { cwd: root, encoding: "utf8" }).trimEnd(); // not trim(): porcelain lines start with a space
  } catch {
    return "";
  }
}

// ---------------------------------------------------------------------------------------------

console.log(
  `npm run bench${quick ? " (quick: a tenth of the data, shorter runs)" : ""}: ${[...sections].join(", ")} on ${dbs.map(dbLabel).join(" and ")}`,
);
console.log(
  `Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), load average ${loadAverage()}`,
);
const webDir = await builtWebDir();
for (const db of dbs) {
  await onDatabase(db, webDir);
  await section("reminders", db, () => reminderFigures(db));
}
await section("startup", "-", startupFigures);

const wallSeconds = (performance.now() - t0) / 1000;
const dirty = git(["status", "--porcelain", "--untracked-files=no"]).split("\n").filter(Boolean);
const result = {
  meta: {
    startedAt: started.toISOString(),
    wallSeconds: Math.round(wallSeconds),
    quick,
    databases: dbs,
    sections: [...sections],
    scale: {
      permits: SIZES.scale.permits,
      companies: SIZES.scale.companies,
      target: SIZES.scale.target.permits,
    },
    git: { commit: git(["rev-parse", "HEAD"]), modifiedFiles: dirty.map((l) => l.slice(3)) },
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "",
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    loadAverageAtEnd: loadAverage(),
    sectionSeconds: sectionSeconds.map((s) => ({ ...s, seconds: Math.round(s.seconds) })),
  },
  figures,
  notes,
};
const stamp = started
  .toISOString()
  .replace(/:/g, "-")
  .replace(/\.\d+Z$/, "Z");
const file = path.join(resultsDir, `${stamp}.json`);
fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
// latest.json is the last complete run: every section on both databases at full size.
const complete = !quick && !only && !dbArg;
if (complete) fs.copyFileSync(file, path.join(resultsDir, "latest.json"));

console.log(`\n${"=".repeat(40)} npm run bench: results ${"=".repeat(40)}`);
console.log(table(figures));
const count = (v: string) => figures.filter((f) => f.verdict === v).length;
console.log(
  `\n${count("pass")} pass, ${count("over")} over budget, ${count("error")} failed, ${count("skipped")} skipped, ${count("info")} for information. ` +
    `Budgets are PostgreSQL's; PGlite's figures stand beside them as information (but statements per request and start-up).`,
);
for (const note of notes) console.log(`Note: ${note.replace(/\.$/, "")}.`);
if (dirty.length)
  console.log(
    `Measured on ${git(["rev-parse", "--short", "HEAD"])} with ${dirty.length} modified files in the working tree.`,
  );
console.log(
  `Written: ${path.relative(process.cwd(), file)}${complete ? " and bench/results/latest.json" : " (a partial run: latest.json, the last complete run, is left as it was)"}. ` +
    `Wall time ${(wallSeconds / 60).toFixed(1)} min.`,
);
process.exitCode = count("error") ? 1 : 0;
