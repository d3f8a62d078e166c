// Foundation numbers: time from `npm start` to a ready /readyz (empty and existing data directory),
// the server's RSS once ready, and the gzip size of the JavaScript the login page loads.
// Run: node scripts/bench/startup.mjs   (needs Chromium: /usr/bin/chromium or CHROMIUM_PATH)
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { chromium } from "playwright-core";
import { buildWebIfStale, root } from "../lib/build-web.mjs";

const PORT = 3900 + Math.floor(Math.random() * 90);
const base = `http://127.0.0.1:${PORT}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-bench-"));

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
const isServer = (pid) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("server/main.ts");
  } catch {
    return false;
  }
};

async function startOnce(label) {
  const t0 = performance.now();
  const child = spawn("npm", ["start", "--silent"], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(PORT),
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
    await new Promise((r) => setTimeout(r, 25));
  }
  const ms = performance.now() - t0;
  const server = descendants(child.pid).find(isServer);
  const rss = server ? rssMb(server) : NaN;
  return {
    label,
    ms,
    rss,
    stop: () =>
      new Promise((r) => {
        child.on("exit", r);
        process.kill(server ?? child.pid, "SIGTERM");
      }),
  };
}

async function loginPageJs() {
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

buildWebIfStale();
const first = await startOnce("empty data directory");
const js = await loginPageJs();
await new Promise((r) => setTimeout(r, 2000));
const server = descendants(process.pid).find(isServer);
const settled = server ? rssMb(server) : NaN;
await first.stop();
const second = await startOnce("existing data directory");
await second.stop();
fs.rmSync(dataDir, { recursive: true, force: true });

console.log(`node ${process.version}, ${os.cpus().length} cores`);
for (const r of [first, second])
  console.log(
    `npm start -> /readyz ready (${r.label}): ${(r.ms / 1000).toFixed(2)} s, server RSS at ready ${r.rss.toFixed(0)} MB`,
  );
console.log(`server RSS after serving the login page: ${settled.toFixed(0)} MB`);
console.log(
  `login page JavaScript: ${js.files.length} files, ${(js.raw / 1024).toFixed(1)} KB raw, ${(js.gzip / 1024).toFixed(1)} KB gzip`,
);
for (const f of js.files) console.log(`  ${f.file}  ${(f.gzip / 1024).toFixed(1)} KB gzip`);
