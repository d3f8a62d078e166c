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
 *   memory         the serving process on PGlite (the `npm start` bundle and flags) over the reminder data
 *                  set: RSS at ready, after start and through a reminders run and a backup, on this Node
 *                  and on Node 24 (scripts/bench/server-memory.ts)
 *   startup        `npm start` to ready with an empty and an existing data directory, the server's RSS
 *                  and the login page's JavaScript (scripts/bench/startup.mjs)
 *   documents      the document suggestions' precision and recall per field, wrong dates and time per page,
 *                  over the suggester's text cases, the fixture layouts and the generated fixture files
 *                  read by text layer and by OCR, in a process of its own (scripts/bench/document-suggestions.ts)
 *   packet         the compliance packet of a 500-permit project drawn to PDF (scripts/bench/compliance-packet.ts)
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
import { createBenchDatabase, type BenchDatabase } from "./bench-database.ts";
import { addBondsData, benchBonds } from "./bonds-aggregates.ts";
import {
  browserFigures,
  documentFigures,
  memoryFigures,
  reminderFigures,
  startupFigures,
} from "./child-figures.ts";
import { packetFigures } from "./compliance-packet.ts";
import { benchImportExport } from "./import-export.ts";
import { dbLabel, figure, loadAverage, root, type DbKind, type Figure } from "./lib.ts";
import { benchTargets, generatePermitsData } from "./permits-data.ts";
import { builtWebDir } from "./processes.ts";
import { profileServer } from "./profile.ts";
import { runOptions, type Section } from "./run-options.ts";
import { Recorder } from "./run-recorder.ts";
import { table } from "./run-table.ts";
import { ServerChild } from "./server-child.ts";
import { benchThroughput } from "./throughput.ts";

const { quick, dbs, sections, complete, sizes: SIZES } = runOptions();

const resultsDir = path.join(root, "bench", "results");
fs.mkdirSync(resultsDir, { recursive: true });
const recorder = new Recorder(sections);
const { figures, notes, sectionSeconds } = recorder;
const section = recorder.section.bind(recorder);
const started = new Date();
const t0 = performance.now();

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
            await section("browser", db, () => browserFigures(server, db, SIZES.browserRounds, notes));
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
  await section("reminders", db, () => reminderFigures(db, SIZES.reminders[db]));
}
if (dbs.includes("pglite")) await section("memory", "pglite", () => memoryFigures(SIZES.memory));
await section("startup", "-", () => startupFigures(notes));
await section("documents", "-", () => documentFigures(notes));
await section("packet", "-", () => packetFigures());

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
if (complete) fs.copyFileSync(file, path.join(resultsDir, "latest.json"));

console.log(`\n${"=".repeat(40)} npm run bench: results ${"=".repeat(40)}`);
console.log(table(figures));
const count = (v: Figure["verdict"]) => recorder.count(v);
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
