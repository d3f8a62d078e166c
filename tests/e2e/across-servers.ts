/**
 * The e2e suite against two servers over one PostgreSQL database (decision 0021): the test command's
 * one run of the Chromium specs, and the proof that two servers over one database serve them as one
 * (issue 10, item 5). `node tests/e2e/run.mjs` starts this when TEST_DATABASE_URL is set.
 *
 * A fresh database with the demo data, two servers over it (the same SESSION_SECRET, one shared
 * data folder for uploads, as README's production section says), then the spec files: those that
 * change or count what the others see run alone, one after another, alternating servers (see
 * ALONE_FIRST and ALONE_LAST); the others in two halves of about equal run time (the last run's
 * times, from test-results/e2e.json), one half against each server, side by side, one Chromium each.
 * Each run's output goes to test-results/e2e/<run>.log and is printed when the run ends; the runs'
 * vitest reports are merged into test-results/e2e.json (or --outputFile.json=<file>), as one
 * server's run writes it. Exits non-zero when a spec failed, a run died, or the servers did not
 * start or stop cleanly. Stops itself past E2E_LIMIT_MS; leaves no server or database behind.
 *
 * Spec files named as arguments run alone and in that order (a quick check of a few).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDatabase, dropDatabase } from "../resilience/lib/postgres.ts";
import { AppServer } from "../resilience/lib/server.ts";
import { freePort, onCleanup, root, runCleanups, runId } from "../resilience/lib/util.ts";
import { DEMO_PASSWORD, DEMO_TOTP_SECRET, FIRST_ADMIN, seedDemo } from "../resilience/two-servers.ts";

/** The whole run, servers and database included, stops by itself past this. */
const E2E_LIMIT_MS = Number(process.env.E2E_LIMIT_MINUTES ?? 30) * 60_000;

/*
 * Files that change what the demo company's other specs count or read run alone, one at a time:
 * side by side they would see each other's changes, which says nothing about two servers. Those
 * that count the demo data as seeded (the projects table, the templates every new project turns
 * into permits) run first, before the halves add records; those that change the company's
 * settings for everyone (reminders, required two-factor sign-in) run last: the notifications spec
 * sends the demo's due reminders (the permit detail spec expects "No reminders sent yet." on a
 * demo permit), and the two-factor spec requires two-factor sign-in of a demo company for a while.
 */
const ALONE_FIRST = [
  "tests/e2e/admin-projects.e2e.ts",
  "tests/e2e/lifecycle.e2e.ts",
  // The tour opens each role's first permit and bond, and checks colours as painted: on data
  // another spec is adding and on two busy cores at once it judges that spec's records instead.
  "tests/e2e/screens.e2e.ts",
];
const ALONE_LAST = ["tests/e2e/notifications.e2e.ts", "tests/e2e/two-factor.e2e.ts"];
const EXCLUSIVE = [...ALONE_FIRST, ...ALONE_LAST];

interface VitestJson {
  numTotalTestSuites: number;
  numPassedTestSuites: number;
  numFailedTestSuites: number;
  numPendingTestSuites: number;
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  startTime: number;
  success: boolean;
  testResults: {
    name: string;
    status: string;
    startTime: number;
    endTime: number;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}

const startedAt = Date.now();
const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl)
  throw new Error("across-servers.ts needs TEST_DATABASE_URL (tests/e2e/run.mjs runs one server without)");
const outArg = process.argv.find((a) => a.startsWith("--outputFile.json="));
const outFile = path.resolve(
  root,
  outArg ? outArg.slice("--outputFile.json=".length) : "test-results/e2e.json",
);
const named = process.argv.slice(2).filter((a) => a.endsWith(".e2e.ts"));
const runDir = path.join(root, "test-results", "e2e");
fs.rmSync(runDir, { recursive: true, force: true });
fs.mkdirSync(runDir, { recursive: true });
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-e2e-"));
const problems: string[] = [];

/**
 * How long each spec file took in the last e2e run (test-results/e2e.json), so the halves take
 * about the same time.
 */
function lastDurations(): Map<string, number> {
  const durations = new Map<string, number>();
  try {
    const report = JSON.parse(
      fs.readFileSync(path.join(root, "test-results", "e2e.json"), "utf8"),
    ) as VitestJson;
    for (const r of report.testResults)
      durations.set(path.relative(root, r.name).split(path.sep).join("/"), r.endTime - r.startTime);
  } catch {
    // No earlier run: the files' sizes stand in for their run times.
  }
  return durations;
}

/** Splits the spec files in two halves of about equal run time (greedy, longest first). */
function splitSpecs(): [string[], string[]] {
  const dir = path.join(root, "tests", "e2e");
  const durations = lastDurations();
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".e2e.ts") && !EXCLUSIVE.includes(`tests/e2e/${f}`))
    .map((f) => {
      const file = `tests/e2e/${f}`;
      // Without a figure: about 4 ms per byte of spec, what the suite's files show.
      return { file, size: durations.get(file) ?? fs.statSync(path.join(dir, f)).size * 4 };
    })
    .sort((x, y) => y.size - x.size || x.file.localeCompare(y.file));
  const halves: [string[], string[]] = [[], []];
  const weight = [0, 0];
  for (const { file, size } of files) {
    const i = weight[0]! <= weight[1]! ? 0 : 1;
    halves[i].push(file);
    weight[i] = weight[i]! + size;
  }
  return halves;
}

interface Run {
  label: string;
  files: string[];
  code: number;
  json: VitestJson | null;
  log: string;
  killed: boolean;
}

/** One vitest run of `files` against `server`, its output in a log file printed when it ends. */
function runSpecs(
  server: AppServer,
  files: string[],
  env: Record<string, string>,
  tag: string,
): Promise<Run> {
  const label = `${server.opts.name}: ${files.map((f) => path.basename(f, ".e2e.ts")).join(", ")}`;
  const jsonFile = path.join(runDir, `${tag}.json`);
  const logFile = path.join(runDir, `${tag}.log`);
  const out = fs.openSync(logFile, "w");
  const child = spawn(
    process.execPath,
    [
      path.join(root, "node_modules", "vitest", "vitest.mjs"),
      "run",
      "--config",
      "tests/e2e/vitest.config.ts",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${jsonFile}`,
      ...files,
    ],
    {
      cwd: root,
      stdio: ["ignore", out, out],
      env: { ...process.env, ...env, E2E_BASE_URL: server.url, NO_COLOR: "1", FORCE_COLOR: "0" },
      // A process group of its own, so that vitest and its workers (and with them their Chromium)
      // can be stopped together.
      detached: true,
    },
  );
  let exited = false;
  const stopGroup = () => {
    if (exited) return; // its group is gone with it: never signal a number that may be reused
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      /* already gone */
    }
  };
  onCleanup(stopGroup);
  let killed = false;
  const timer = setTimeout(
    () => {
      killed = true;
      stopGroup();
    },
    Math.max(10_000, startedAt + E2E_LIMIT_MS - 60_000 - Date.now()),
  );
  return new Promise((resolve) =>
    child.on("exit", (code) => {
      exited = true;
      clearTimeout(timer);
      fs.closeSync(out);
      let json: VitestJson | null = null;
      try {
        json = JSON.parse(fs.readFileSync(jsonFile, "utf8")) as VitestJson;
      } catch {
        /* no report: the run died */
      }
      if (killed) fs.appendFileSync(logFile, "\n(stopped: the e2e run's time was up)\n");
      console.log(`\n----- e2e against ${label} (${path.relative(root, logFile)})`);
      process.stdout.write(fs.readFileSync(logFile, "utf8"));
      resolve({ label, files, code: code ?? 1, json, log: logFile, killed });
    }),
  );
}

/** The runs' reports as one, the way a single vitest run writes it. */
function merged(runs: Run[]): VitestJson {
  const jsons = runs.map((r) => r.json).filter((j): j is VitestJson => j !== null);
  const sum = (key: keyof VitestJson) => jsons.reduce((n, j) => n + (j[key] as number), 0);
  return {
    numTotalTestSuites: sum("numTotalTestSuites"),
    numPassedTestSuites: sum("numPassedTestSuites"),
    numFailedTestSuites: sum("numFailedTestSuites"),
    numPendingTestSuites: sum("numPendingTestSuites"),
    numTotalTests: sum("numTotalTests"),
    numPassedTests: sum("numPassedTests"),
    // A run without a report (killed, crashed) counts as one failure, so it cannot pass unseen.
    numFailedTests: sum("numFailedTests") + (runs.length - jsons.length),
    numPendingTests: sum("numPendingTests"),
    numTodoTests: sum("numTodoTests"),
    startTime: Math.min(...jsons.map((j) => j.startTime), startedAt),
    success: runs.every((r) => r.code === 0 && r.json?.success === true),
    testResults: jsons.flatMap((j) => j.testResults),
  };
}

const servers: AppServer[] = [];
let databaseName = "";

async function cleanUp() {
  await runCleanups();
  await Promise.all(servers.map((s) => s.stop(10_000).catch(() => undefined)));
  if (databaseName) await dropDatabase(adminUrl!, databaseName).catch(() => undefined);
  fs.rmSync(scratch, { recursive: true, force: true });
}

let finishing = false;
const bail = (why: string) => (err: unknown) => {
  if (finishing) return;
  finishing = true;
  console.error(`e2e over two servers: ${why}:`, err);
  void cleanUp().finally(() => process.exit(1));
};
process.on("uncaughtException", bail("uncaught exception"));
process.on("unhandledRejection", bail("unhandled rejection"));
process.on("SIGINT", () => bail("interrupted")(new Error("SIGINT")));
process.on("SIGTERM", () => bail("interrupted")(new Error("SIGTERM")));
const watchdog = setTimeout(
  () => bail(`still running after ${E2E_LIMIT_MS / 60_000} minutes`)(new Error("stopped by the watchdog")),
  E2E_LIMIT_MS,
);

let code: number;
try {
  // The shared build helper is plain JavaScript without types.
  const buildWeb = "../../scripts/lib/build-web.mjs";
  const { buildWebIfStale, buildWebInto } = (await import(buildWeb)) as {
    buildWebIfStale: () => boolean;
    buildWebInto: (outDir: string) => void;
  };
  // E2E_PRIVATE_BUILD=1 builds into the run's own folder, so parallel runs never share dist/.
  const webDir = process.env.E2E_PRIVATE_BUILD === "1" ? path.join(scratch, "web") : path.join(root, "dist");
  if (process.env.E2E_PRIVATE_BUILD === "1") buildWebInto(webDir);
  else buildWebIfStale();

  // The same secret on every instance (and the demo seed), as README's production section says.
  const sessionSecret = `e2e-${runId}-0123456789abcdef0123456789abcdef`;
  databaseName = `permitrack_e2e_${runId}`;
  const databaseUrl = await createDatabase(adminUrl, databaseName);
  const dataDir = path.join(scratch, "data");
  const adminPassword = seedDemo(databaseUrl, dataDir, sessionSecret);
  const options = async (name: string) => ({
    name,
    port: await freePort(),
    databaseUrl,
    dataDir,
    webDir,
    logDir: runDir,
    sessionSecret,
    // The webhooks spec delivers to a receiver on 127.0.0.1, which production refuses (as in run.mjs).
    env: { WEBHOOKS_ALLOW_PRIVATE: "true" },
  });
  const [a, b] = [new AppServer(await options("server-a")), new AppServer(await options("server-b"))];
  servers.push(a, b);
  // Started together: their migrations at start serialise on the advisory lock.
  await Promise.all([a.start(), b.start()]);
  console.log(`==> e2e: two servers over one PostgreSQL database (${a.url}, ${b.url}), demo data seeded`);

  const env = {
    E2E_DATA_DIR: dataDir,
    E2E_DATABASE_URL: databaseUrl,
    E2E_ADMIN_EMAIL: FIRST_ADMIN,
    E2E_ADMIN_PASSWORD: adminPassword,
    E2E_DEMO_PASSWORD: DEMO_PASSWORD,
    E2E_DEMO_TOTP_SECRET: DEMO_TOTP_SECRET,
    // The specs that sign an Acknowledge link the way a reminder e-mail does need the servers' key.
    E2E_SESSION_SECRET: sessionSecret,
    // The web app the servers serve: a spec that starts a server of its own (first-run.e2e.ts) serves it too.
    E2E_WEB_DIR: webDir,
  };
  const present = (files: string[]) => files.filter((f) => fs.existsSync(path.join(root, f)));
  const runs: Run[] = [];
  const alone = async (files: string[]) => {
    for (const file of files) {
      const server = servers[runs.length % 2]!;
      runs.push(await runSpecs(server, [file], env, `${server.opts.name}-${path.basename(file, ".e2e.ts")}`));
    }
  };
  if (named.length) {
    await alone(named.map((f) => path.relative(root, path.resolve(root, f)).split(path.sep).join("/")));
  } else {
    await alone(present(ALONE_FIRST));
    const halves = splitSpecs();
    const t0 = Date.now();
    runs.push(
      ...(await Promise.all(servers.map((s, i) => runSpecs(s, halves[i]!, env, `${s.opts.name}-half`)))),
    );
    console.log(`\n==> e2e: both halves, side by side, done in ${Math.round((Date.now() - t0) / 1000)} s`);
    await alone(present(ALONE_LAST));
  }

  const stopped = await Promise.all([a.stop(), b.stop()]);
  if (!stopped.every(Boolean))
    problems.push(`a server did not stop on SIGTERM: ${JSON.stringify([a.lastExit, b.lastExit])}`);
  for (const run of runs) {
    if (!run.json)
      problems.push(
        `no report from the run against ${run.label} (exit ${run.code}${run.killed ? ", stopped: time was up" : ""})`,
      );
  }
  const report = merged(runs);
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  fs.writeFileSync(outFile, JSON.stringify(report));

  console.log("\n==> e2e over two servers");
  for (const run of runs) {
    const j = run.json;
    const failed = (j?.testResults ?? []).flatMap((f) =>
      f.assertionResults
        .filter((x) => x.status === "failed")
        .map(
          (x) => `${path.basename(f.name)} › ${x.fullName}: ${(x.failureMessages[0] ?? "").split("\n")[0]}`,
        ),
    );
    console.log(
      `  ${run.code === 0 && j?.success ? "ok  " : "FAIL"} ${run.label}: ${j ? `${j.numPassedTests}/${j.numTotalTests} passed` : "no report"}`,
    );
    for (const f of failed) console.log(`       ${f}`);
  }
  for (const p of problems) console.log(`  FAIL ${p}`);
  console.log(
    `  ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests + report.numTodoTests} skipped in ${Math.round((Date.now() - startedAt) / 1000)} s`,
  );
  code = report.success && problems.length === 0 ? 0 : 1;
} catch (err) {
  console.error("e2e over two servers could not run:", err);
  code = 1;
} finally {
  clearTimeout(watchdog);
  await cleanUp();
}
process.exit(code);
