// `npm run test:e2e`: the Playwright specs in Chromium against the real server.
//
// With TEST_DATABASE_URL (PostgreSQL): two servers over one fresh database, the specs split across
// them (tests/e2e/across-servers.ts; decision 0021). That is the test command's one e2e run and the
// proof that two servers over one database serve the app as one.
// Without (or with E2E_SERVERS=1): builds the web app, seeds a fresh embedded database (PGlite),
// starts one server on a free port, runs the specs one file after another, and stops the server.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { buildWebIfStale, buildWebInto, root } from "../../scripts/lib/build-web.mjs";

const DEMO_PASSWORD = "demo-password-e2e";
// The demo super-admin must use two-factor sign-in; the specs compute its codes from this key (the
// base32 key a person types into an authenticator app, as DEMO_TOTP_SECRET takes it).
const DEMO_TOTP_SECRET = "MUZGKLLEMVWW6LLUN52HALLTMVRXEZLUFUYDCMRTGQ2TMNZYHFQWE";
const ADMIN_EMAIL = "first.admin@permitrack.example";

if (process.env.TEST_DATABASE_URL && process.env.E2E_SERVERS !== "1") {
  const across = spawn(
    process.execPath,
    ["--import", "tsx", "tests/e2e/across-servers.ts", ...process.argv.slice(2)],
    { cwd: root, stdio: "inherit" },
  );
  process.exit(await new Promise((resolve) => across.on("exit", (c) => resolve(c ?? 1))));
}

const freePort = () =>
  new Promise((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-e2e-"));
// E2E_PRIVATE_BUILD=1 builds into the run's own folder, so parallel runs never share dist/.
const webDir = process.env.E2E_PRIVATE_BUILD === "1" ? path.join(dataDir, "web") : path.join(root, "dist");
if (process.env.E2E_PRIVATE_BUILD === "1") buildWebInto(webDir);
else buildWebIfStale();
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const env = {
  ...process.env,
  NODE_ENV: "production",
  DATA_DIR: dataDir,
  WEB_DIR: webDir,
  PORT: String(port),
  HOST: "127.0.0.1",
  PUBLIC_URL: baseUrl,
  ADMIN_EMAIL,
  ADMIN_PASSWORD: "",
  DATABASE_URL: "",
  SCHEDULER: "off",
  // The webhooks spec delivers to a receiver on 127.0.0.1, which production refuses.
  WEBHOOKS_ALLOW_PRIVATE: "true",
  LOG_LEVEL: "warn",
  // One browser signs in from 127.0.0.1 hundreds of times; the limits themselves are covered by API tests.
  SIGNIN_IP_LIMIT: "100000",
  SIGNIN_ACCOUNT_LIMIT: "100000",
  API_RATE_LIMIT: "100000",
  DEMO_PASSWORD,
  DEMO_TOTP_SECRET,
};
const tsx = [path.join(root, "node_modules", "tsx", "dist", "cli.mjs")];

// The seed creates the first super-admin with a generated password (the forced-reset path) and the demo data.
const seed = spawnSync(process.execPath, [...tsx, "server/setup/seed-demo.ts"], {
  cwd: root,
  env,
  encoding: "utf8",
});
if (seed.status !== 0) {
  console.error(seed.stdout, seed.stderr);
  process.exit(1);
}
const generated = /password:\s+(\S+)/.exec(seed.stdout)?.[1];
if (!generated) throw new Error(`no generated admin password in the seed output:\n${seed.stdout}`);

const server = spawn(process.execPath, [...tsx, "server/main.ts"], {
  cwd: root,
  env,
  stdio: ["ignore", "inherit", "inherit"],
});
const deadline = Date.now() + 60_000;
for (;;) {
  try {
    if ((await fetch(`${baseUrl}/readyz`)).ok) break;
  } catch {
    /* not yet listening */
  }
  if (Date.now() > deadline || server.exitCode !== null) {
    server.kill();
    throw new Error("the server did not become ready");
  }
  await new Promise((r) => setTimeout(r, 250));
}

const vitest = spawn(
  process.execPath,
  [
    path.join(root, "node_modules", "vitest", "vitest.mjs"),
    "run",
    "--config",
    "tests/e2e/vitest.config.ts",
    ...process.argv.slice(2),
  ],
  {
    cwd: root,
    stdio: "inherit",
    env: {
      ...process.env,
      E2E_BASE_URL: baseUrl,
      E2E_DATA_DIR: dataDir,
      E2E_ADMIN_EMAIL: ADMIN_EMAIL,
      E2E_ADMIN_PASSWORD: generated,
      E2E_DEMO_PASSWORD: DEMO_PASSWORD,
      E2E_DEMO_TOTP_SECRET: DEMO_TOTP_SECRET,
      // The web app the server serves: a spec that starts a server of its own (first-run.e2e.ts) serves it too.
      E2E_WEB_DIR: webDir,
    },
  },
);
const code = await new Promise((resolve) => vitest.on("exit", (c) => resolve(c ?? 1)));
server.kill("SIGTERM");
await new Promise((resolve) => server.on("exit", resolve));
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(code);
