/**
 * Item 5, two servers over one database: a session made on one works on the other, and the e2e
 * suite passes against either (its spec files split across the two, run side by side).
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { call, signIn } from "./lib/http.ts";
import type { Report } from "./lib/report.ts";
import type { AppServer } from "./lib/server.ts";
import { onCleanup, root } from "./lib/util.ts";

export const DEMO_PASSWORD = "demo-password-resilience";
// As the e2e runner: the demo super-admin signs in with two-factor; the specs compute its codes from this.
const DEMO_TOTP_SECRET = "resilience-demo-totp-secret-0123456";
export const FIRST_ADMIN = "first.admin@permitrack.example";
export const DEMO = {
  companyAdmin: "dana.whitfield@summit-ridge.example",
  companyUser: "sam.baker@summit-ridge.example",
  otherCompanyAdmin: "maya.chen@bayline-civil.example",
};

/** Loads the demo data as `npm run seed:demo` does; returns the first super-admin's generated password. */
export function seedDemo(databaseUrl: string, dataDir: string, sessionSecret: string): string {
  const seed = spawnSync(process.execPath, ["--import", "tsx", "server/setup/seed-demo.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      ADMIN_EMAIL: FIRST_ADMIN,
      ADMIN_PASSWORD: "",
      DEMO_PASSWORD,
      DEMO_TOTP_SECRET,
      // Two-factor secrets are encrypted with it: the seed and the servers must share it.
      SESSION_SECRET: sessionSecret,
    },
    encoding: "utf8",
    timeout: 120_000,
  });
  if (seed.status !== 0) throw new Error(`seed:demo failed:\n${seed.stdout}\n${seed.stderr}`);
  const generated = /password:\s+(\S+)/.exec(seed.stdout)?.[1];
  if (!generated) throw new Error(`no generated admin password in the seed output:\n${seed.stdout}`);
  return generated;
}

/** A session cookie from one server is a session on the other; signing out on one ends it on both. */
export async function sessionAcrossServers(report: Report, a: AppServer, b: AppServer) {
  report.begin("Two servers: one session, either server");
  const cookie = await signIn(a.url, DEMO.companyAdmin, DEMO_PASSWORD);
  const meOnB = await call<{ email?: string }>(b.url, "GET", "/api/me", { cookie });
  report.check(
    "a session made on server A is recognised by server B",
    meOnB.status === 200 && meOnB.body.email === DEMO.companyAdmin,
    `B answered ${meOnB.status} ${meOnB.body.email ?? ""}`,
  );
  const listOnB = await call<{ total?: number }>(b.url, "GET", "/api/permits?page=1", { cookie });
  const listOnA = await call<{ total?: number }>(a.url, "GET", "/api/permits?page=1", { cookie });
  report.check(
    "both servers show the same permits to that session",
    listOnA.status === 200 && listOnB.status === 200 && listOnA.body.total === listOnB.body.total,
    `A ${listOnA.status} total ${listOnA.body.total}, B ${listOnB.status} total ${listOnB.body.total}`,
  );
  // A write through B is read back through A.
  const comment = `written through B at ${Date.now()}`;
  const permitId = (
    await call<{ groups: { projects: { permits: { id: string }[] }[] }[] }>(
      a.url,
      "GET",
      "/api/permits?page=1&page_size=1",
      { cookie },
    )
  ).body.groups[0]?.projects[0]?.permits[0]?.id;
  const written = await call(b.url, "POST", `/api/permits/${permitId}/comments`, {
    cookie,
    json: { text: comment },
  });
  const readBack = await call<{ comments: { text: string }[] }>(
    a.url,
    "GET",
    `/api/permits/${permitId}/comments`,
    {
      cookie,
    },
  );
  report.check(
    "a comment written through B is read back through A",
    written.status === 201 &&
      readBack.status === 200 &&
      readBack.body.comments.some((c) => c.text === comment),
    `B ${written.status}, A ${readBack.status}`,
  );
  const out = await call(b.url, "POST", "/api/auth/sign-out", { cookie });
  const afterOnA = await call(a.url, "GET", "/api/me", { cookie });
  report.check(
    "signing out on B ends the session on A",
    out.status === 204 && afterOnA.status === 401,
    `sign-out ${out.status}, then A answered ${afterOnA.status}`,
  );
}

interface VitestJson {
  numPassedTests: number;
  numFailedTests: number;
  numTotalTests: number;
  testResults: {
    name: string;
    status: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}

/**
 * Spec files that change what the others see while they run, so they run alone, one after another
 * after both halves (alternating servers): the notifications spec sends the demo's due reminders
 * (the permit detail spec expects "No reminders sent yet." on a demo permit), and the two-factor
 * spec requires two-factor sign-in of a demo company for a while (its staff sign in elsewhere).
 */
/*
 * Files that change what the demo company's other specs count or read run alone, one at a time:
 * side by side they would see each other's changes, which says nothing about two servers. Those
 * that count the demo data as seeded (the projects table, the templates every new project turns
 * into permits) run first, before the halves add records; those that change the company's
 * settings for everyone (reminders, required two-factor sign-in) run last.
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
/** The most one file run alone may take (the screens tour takes about 3 minutes). */
const ALONE_MS = 5 * 60_000;
/** Time kept for each exclusive file after the halves. */
const EXCLUSIVE_MS = 60_000;

/**
 * How long each spec file took in the last e2e run (test-results/e2e.json, which the README's test
 * command writes just before this suite), so the halves take about the same time.
 */
function lastDurations(): Map<string, number> {
  const durations = new Map<string, number>();
  try {
    const report = JSON.parse(fs.readFileSync(path.join(root, "test-results", "e2e.json"), "utf8")) as {
      testResults: { name: string; startTime: number; endTime: number }[];
    };
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

function runSpecs(
  server: AppServer,
  files: string[],
  env: Record<string, string>,
  outDir: string,
  tag: string,
  limitMs: number,
): Promise<{ code: number; json: VitestJson | null; log: string; killed: boolean; limitMs: number }> {
  const jsonFile = path.join(outDir, `e2e-${tag}.json`);
  const logFile = path.join(outDir, `e2e-${tag}.log`);
  fs.rmSync(jsonFile, { force: true });
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
  child.on("exit", () => (exited = true));
  const stopGroup = () => {
    if (exited) return; // its group is gone with it: never signal a number that may be reused
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      /* already gone */
    }
  };
  onCleanup(stopGroup);
  // Bounded: stopped when its time is up.
  let killed = false;
  const timer = setTimeout(
    () => {
      killed = true;
      stopGroup();
    },
    Math.max(10_000, limitMs),
  );
  return new Promise((resolve) =>
    child.on("exit", (code) => {
      clearTimeout(timer);
      fs.closeSync(out);
      let json: VitestJson | null = null;
      try {
        json = JSON.parse(fs.readFileSync(jsonFile, "utf8")) as VitestJson;
      } catch {
        /* no report: the run died */
      }
      if (killed)
        fs.appendFileSync(
          logFile,
          `\n(stopped: still running after ${Math.round(Math.max(10_000, limitMs) / 1000)} s)\n`,
        );
      resolve({ code: code ?? 1, json, log: logFile, killed, limitMs: Math.max(10_000, limitMs) });
    }),
  );
}

/** The e2e suite, its files split over the two servers and run at the same time (one Chromium each). */
export async function e2eAcrossServers(
  report: Report,
  servers: [AppServer, AppServer],
  env: { adminPassword: string; dataDir: string; databaseUrl: string },
  outDir: string,
  /** When everything here must be done (the suite's budget). */
  deadline: number,
) {
  report.begin("Two servers: the e2e suite, half of its files against each, side by side");
  const halves = splitSpecs();
  const common = {
    E2E_DATA_DIR: env.dataDir,
    E2E_DATABASE_URL: env.databaseUrl,
    E2E_ADMIN_EMAIL: FIRST_ADMIN,
    E2E_ADMIN_PASSWORD: env.adminPassword,
    E2E_DEMO_PASSWORD: DEMO_PASSWORD,
    E2E_DEMO_TOTP_SECRET: DEMO_TOTP_SECRET,
    // The specs that sign an Acknowledge link the way a reminder e-mail does need the servers' key.
    E2E_SESSION_SECRET: servers[0].opts.sessionSecret,
  };
  const t0 = Date.now();
  const present = (files: string[]) => files.filter((f) => fs.existsSync(path.join(root, f)));
  const first = present(ALONE_FIRST);
  const last = present(ALONE_LAST);
  const runs: Awaited<ReturnType<typeof runSpecs>>[] = [];
  const ran: { files: string[]; server: AppServer; label: string }[] = [];
  // One file at a time, alternating servers.
  const alone = async (files: string[], when: string) => {
    for (const file of files) {
      const server = servers[ran.length % 2]!;
      runs.push(
        await runSpecs(
          server,
          [file],
          common,
          outDir,
          `${server.opts.name}-${path.basename(file, ".e2e.ts")}`,
          Math.min(ALONE_MS, deadline - Date.now()),
        ),
      );
      ran.push({ files: [file], server, label: `${server.opts.name} (alone, ${when})` });
    }
  };
  await alone(first, "before both halves");
  const halfLimit = deadline - Date.now() - last.length * EXCLUSIVE_MS;
  runs.push(
    ...(await Promise.all(
      servers.map((s, i) => runSpecs(s, halves[i]!, common, outDir, s.opts.name, halfLimit)),
    )),
  );
  servers.forEach((server, i) => ran.push({ files: halves[i]!, server, label: server.opts.name }));
  report.note(`both halves done in ${Math.round((Date.now() - t0) / 1000)} s`);
  await alone(last, "after both halves");
  report.note(`all done in ${Math.round((Date.now() - t0) / 1000)} s`);
  report.figures.e2e = { passedOn: {}, exitCodes: {} };
  ran.forEach(({ files, label: name }, i) => {
    const run = runs[i]!;
    report.figures.e2e!.exitCodes[name] = run.code;
    report.figures.e2e!.passedOn[name] = files;
    const j = run.json;
    const failed = j?.testResults.flatMap((f) =>
      f.assertionResults
        .filter((a) => a.status === "failed")
        .map(
          (a) => `${path.basename(f.name)} › ${a.fullName}: ${(a.failureMessages[0] ?? "").split("\n")[0]}`,
        ),
    );
    report.check(
      `e2e against ${name} (${files.map((f) => path.basename(f, ".e2e.ts")).join(", ")})`,
      run.code === 0 && !!j && j.numFailedTests === 0 && j.numPassedTests > 0,
      j
        ? `${j.numPassedTests}/${j.numTotalTests} passed${failed?.length ? `; ${failed.slice(0, 3).join(" | ")}` : ""} (log: ${path.relative(root, run.log)})`
        : `no report: ${run.killed ? `stopped after ${Math.round(run.limitMs / 1000)} s (the suite's time budget)` : `exit ${run.code}`} (log: ${path.relative(root, run.log)})`,
    );
  });
}
