// The test command's proof that a server installs without the dev tools (issue 26, decision 0026):
// a release of this checkout in a fresh folder (scripts/release.mjs: the tracked files, dist/ and
// build/server/), `npm ci --omit=dev` there (from npm's cache when it can), then `npm start` on a new
// embedded data folder with nothing of this machine's configuration: /readyz must answer 200 and /
// the web app's page. Prints each step's time; exits 1 when a step fails.
//
// Run: node scripts/lib/production-install.mjs [--keep] (--keep leaves the folder for a look)
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { root } from "./build-web.mjs";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-production-"));
const app = path.join(work, "app");
const keep = process.argv.includes("--keep");
// Only what a fresh server has: no DATABASE_URL, SMTP, secrets or test settings of this machine.
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  ...(process.env.npm_config_cache ? { npm_config_cache: process.env.npm_config_cache } : {}),
};

function step(name, fn) {
  const t0 = performance.now();
  const result = fn();
  console.log(`  ${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return result;
}

function run(command, args, cwd) {
  const r = spawnSync(command, args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (r.status !== 0)
    throw new Error(`${command} ${args.join(" ")} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });

async function startAndProbe() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const log = path.join(work, "server.log");
  const out = fs.openSync(log, "w");
  const child = spawn("npm", ["start", "--silent"], {
    cwd: app,
    env: { ...env, HOST: "127.0.0.1", PORT: String(port), DATA_DIR: path.join(work, "data") },
    stdio: ["ignore", out, out],
    detached: true,
  });
  fs.closeSync(out);
  let exited = null;
  child.on("exit", (code, signal) => (exited = code ?? signal));
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      try {
        const ready = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(2000) });
        if (ready.status === 200) break;
      } catch {
        /* not listening yet */
      }
      if (exited !== null || Date.now() > deadline)
        throw new Error(
          `the server did not become ready (${exited !== null ? `exit ${exited}` : "timed out"}):\n${fs.readFileSync(log, "utf8").slice(-3000)}`,
        );
      await new Promise((r) => setTimeout(r, 200));
    }
    const page = await fetch(`${base}/`);
    const html = await page.text();
    if (page.status !== 200 || !html.includes('<div id="root">'))
      throw new Error(`/ answered ${page.status} without the web app's page`);
  } finally {
    if (exited === null) {
      process.kill(-child.pid, "SIGTERM"); // npm and the server under it
      await new Promise((r) => {
        const timer = setTimeout(() => {
          try {
            process.kill(-child.pid, "SIGKILL");
          } catch {
            /* gone */
          }
          r();
        }, 20_000);
        child.on("exit", () => {
          clearTimeout(timer);
          r();
        });
      });
    }
  }
}

const t0 = performance.now();
try {
  console.log(`Production install from a clean copy, in ${work}:`);
  step("release (scripts/release.mjs; builds when stale)", () =>
    run(process.execPath, [path.join(root, "scripts", "release.mjs"), "--out", app], root),
  );
  step("npm ci --omit=dev", () =>
    run("npm", ["ci", "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], app),
  );
  // (vite and vitest come in all the same, as better-auth's optional peer: the build needs more.)
  for (const tool of ["typescript", "@vitejs/plugin-react"])
    if (fs.existsSync(path.join(app, "node_modules", tool)))
      throw new Error(`node_modules/${tool} is installed: --omit=dev left a dev dependency in`);
  const t = performance.now();
  await startAndProbe();
  console.log(
    `  npm start on a new embedded database -> /readyz 200 and the web app's page: ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  console.log(`Production install: ok (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
} catch (err) {
  console.error(`Production install: FAILED\n${err instanceof Error ? err.message : err}`);
  process.exitCode = 1;
} finally {
  if (keep) console.log(`(kept: ${work})`);
  else fs.rmSync(work, { recursive: true, force: true });
}
