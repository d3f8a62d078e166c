/**
 * What the benchmarks share: a database of their own (a fresh PostgreSQL database created on
 * BENCH_DATABASE_URL's server and dropped after, or a PGlite directory under the temp folder),
 * migrated; the bench configuration; the app in this process or the real server as a child process;
 * signing in; statistics; and the figures `npm run bench` (scripts/bench/run.ts) collects, which a
 * benchmark run by itself prints as its last stdout line with --json: `{"figures":[...]}`.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { PGlite } from "@electric-sql/pglite";
import type { FastifyInstance, FastifyServerOptions } from "fastify";
import pg from "pg";
import { buildApp } from "../../server/app.ts";
import { loadConfig, type Config } from "../../server/config.ts";
import { acquireDataDirLock, openDatabase, type Database, type DataDirLock } from "../../server/db/client.ts";
import { migrateDatabase } from "../../server/db/migrate.ts";
import { CSRF_HEADER, CSRF_HEADER_VALUE } from "../../shared/domain/constants.ts";

export const root = path.resolve(import.meta.dirname, "..", "..");
export type DbKind = "pg" | "pglite";
/** The PostgreSQL server the benchmarks create their databases on (BENCH_PG_URL: the old name). */
export const PG_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
export const SESSION_SECRET = "bench-secret-bench-secret-bench-secret-01";

/** `--name=value` from the command line. */
export const arg = (name: string): string | undefined =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
export const hasFlag = (name: string): boolean => process.argv.includes(`--${name}`);
/** The databases a benchmark runs on: --db=pg | --db=pglite, else `fallback`. */
export const dbKinds = (fallback: DbKind[] = ["pg", "pglite"]): DbKind[] => {
  const db = arg("db");
  if (db === "both") return ["pg", "pglite"];
  return db ? [db as DbKind] : fallback;
};
export const dbLabel = (kind: DbKind) => (kind === "pg" ? "PostgreSQL" : "PGlite");
/** True when the module is the script node was started with (not imported by run.ts). */
export const isMain = (url: string) => url === `file://${process.argv[1]}`;

// ---------------------------------------------------------------------------------------------
// Figures

export type Verdict = "pass" | "over" | "info" | "error" | "skipped";

export interface Figure {
  section: string;
  name: string;
  /** ms, s, req/s, x (a ratio), statements, MB, KB. */
  unit: string;
  db: DbKind | "-";
  median: number | null;
  p95: number | null;
  budget: number | null;
  /** "max": the figure must stay at or under the budget; "min": at or above it (requests per second). */
  budgetKind?: "max" | "min";
  /** Which value the budget judges (default the median). */
  judged?: "median" | "p95";
  verdict: Verdict;
  n?: number;
  note?: string;
}

export type FigureInput = Omit<Figure, "verdict" | "p95" | "budget" | "median"> & {
  median: number | null;
  p95?: number | null;
  budget?: number | null;
  verdict?: Verdict;
};

/** A figure with its verdict: pass or over against its budget, info without one. */
export function figure(f: FigureInput): Figure {
  const out: Figure = { ...f, p95: f.p95 ?? null, budget: f.budget ?? null, verdict: f.verdict ?? "info" };
  if (!f.verdict && out.budget !== null) {
    const value = out.judged === "p95" ? out.p95 : out.median;
    if (value === null || !Number.isFinite(value)) out.verdict = "over";
    else
      out.verdict = (out.budgetKind === "min" ? value >= out.budget : value <= out.budget) ? "pass" : "over";
  }
  return out;
}

/** The last stdout line of a benchmark run with --json. */
export const printFigures = (figures: Figure[]) => console.log(JSON.stringify({ figures }));

/** The figures of a benchmark's `--json` line, if its output has one. */
export function parseFiguresLine(stdout: string): Partial<Figure>[] | null {
  const last = stdout
    .trim()
    .split("\n")
    .reverse()
    .find((l) => l.startsWith('{"figures"'));
  if (!last) return null;
  try {
    return (JSON.parse(last) as { figures: Partial<Figure>[] }).figures;
  } catch {
    return null;
  }
}

export interface Stats {
  median: number;
  p95: number;
  min: number;
  max: number;
  n: number;
}

/** Nearest-rank median and 95th percentile. */
export function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
  return { median: at(0.5), p95: at(0.95), min: sorted[0]!, max: sorted.at(-1)!, n: sorted.length };
}

export const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

// ---------------------------------------------------------------------------------------------
// Databases

export interface BenchDatabase {
  kind: DbKind;
  /** The server's DATA_DIR (files, outbox; on PGlite the database under pglite/). */
  dataDir: string;
  /** PostgreSQL only: the URL of the database created for this run. */
  databaseUrl?: string;
  /** Open until suspend() (PGlite is one process per directory: a server child needs it closed). */
  database: Database;
  /** PGlite only: the embedded instance behind `database`, for replaying statements on it. */
  pglite?: PGlite;
  suspend(): Promise<void>;
  resume(): Promise<Database>;
  /** Closes, drops the PostgreSQL database and removes the data directory. */
  dispose(): Promise<void>;
}

/** A fresh, migrated database of the given kind; `label` names it (permitrack_<label>_<time>). */
export async function createBenchDatabase(kind: DbKind, label: string): Promise<BenchDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `permitrack-${label}-`));
  let databaseUrl: string | undefined;
  let admin: pg.Client | undefined;
  const name = `permitrack_${label.replace(/\W/g, "_")}_${Date.now().toString(36)}`;
  if (kind === "pg") {
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  let lock: DataDirLock | undefined;
  let open = false;
  const bench: BenchDatabase = {
    kind,
    dataDir,
    databaseUrl,
    database: undefined as unknown as Database,
    async resume() {
      if (kind === "pg") {
        bench.database = await openDatabase({ databaseUrl });
        open = true;
      } else {
        lock = acquireDataDirLock(dataDir);
        open = true;
        const dir = path.join(dataDir, "pglite");
        fs.mkdirSync(dir, { recursive: true });
        bench.pglite = await PGlite.create(dir);
        bench.database = await openDatabase({ pglite: bench.pglite });
      }
      return bench.database;
    },
    async suspend() {
      if (!open) return;
      open = false;
      await bench.database.close();
      bench.pglite = undefined;
      lock?.release();
      lock = undefined;
    },
    async dispose() {
      try {
        await bench.suspend().catch(() => undefined);
      } finally {
        if (admin) {
          // pool.end() does not wait for the server to see its connections go; a forced drop would
          // cut them mid-goodbye (and the pool would log them as lost).
          for (let i = 0; i < 40; i++) {
            const left = await admin.query(`select 1 from pg_stat_activity where datname = $1`, [name]);
            if (!left.rowCount) break;
            await new Promise((r) => setTimeout(r, 50));
          }
          await admin.query(`drop database if exists ${name} with (force)`);
          await admin.end();
        }
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
  try {
    await bench.resume();
    await migrateDatabase(bench.database);
  } catch (err) {
    await bench.dispose();
    throw err;
  }
  return bench;
}

// ---------------------------------------------------------------------------------------------
// The app in this process

/** The server's configuration for a benchmark: production mode, no scheduler, no rate limits in the way. */
export function benchConfig(dataDir: string, publicUrl?: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    SCHEDULER: "off",
    SESSION_SECRET,
    API_RATE_LIMIT: "1000000",
    SIGNIN_IP_LIMIT: "1000000",
    SIGNIN_ACCOUNT_LIMIT: "1000000",
    PUBLIC_URL: publicUrl,
    ...env,
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

export interface RunningApp {
  app: FastifyInstance;
  base: string;
  close(): Promise<void>;
}

/**
 * buildApp() over `database`, listening on 127.0.0.1. `logger` as Fastify takes it (none by default;
 * the API benchmark passes production's level with the lines going nowhere).
 */
export async function startApp(
  database: Database,
  o: { dataDir: string; webDir?: string; logger?: FastifyServerOptions["logger"] },
): Promise<RunningApp> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = await buildApp({
    config: benchConfig(o.dataDir, base),
    database,
    webDir: o.webDir ?? path.join(o.dataDir, "no-web-app"),
    logger: o.logger,
  });
  await app.listen({ host: "127.0.0.1", port });
  return { app, base, close: () => app.close() };
}

/** Signs in over HTTP (a base URL) or through app.inject; returns the Cookie header to send. */
export async function signIn(
  target: string | FastifyInstance,
  email: string,
  password: string,
): Promise<string> {
  const headers = { "content-type": "application/json", [CSRF_HEADER]: CSRF_HEADER_VALUE };
  if (typeof target !== "string") {
    const res = await target.inject({
      method: "POST",
      url: "/api/auth/sign-in",
      headers,
      payload: { email, password },
    });
    if (res.statusCode !== 200) throw new Error(`sign-in as ${email} failed: ${res.statusCode} ${res.body}`);
    return res.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  }
  const res = await fetch(`${target}/api/auth/sign-in`, {
    method: "POST",
    headers,
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${email} failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** Times `requests` GETs through app.inject (no network) after `warmup` untimed ones; each must answer 200. */
export async function timeInjected(
  app: FastifyInstance,
  url: string,
  cookie: string,
  o: { warmup: number; requests: number },
): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < o.warmup + o.requests; i++) {
    const t = performance.now();
    const res = await app.inject({ method: "GET", url, headers: { cookie } });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    if (i >= o.warmup) samples.push(performance.now() - t);
  }
  return samples;
}

/**
 * GET over one keep-alive connection, the body read to its end and dropped: the time a client
 * waits for the whole response. Throws on a status other than 200.
 *
 * A lean HTTP/1.1 client on a raw socket (Nagle off): it writes one pre-built request and reads
 * only what framing needs (the status line, Content-Length or chunked transfer encoding), where
 * node's http client parses every header into objects and emits a stream event per chunk. What
 * the API figures measure is the server; node's client cost about 0.03 ms a request more here,
 * more on responses with many headers, a fifth of a detail's replay (docs/PERFORMANCE.md).
 */
export function keepAliveGetter(base: string, cookie: string) {
  const url = new URL(base);
  const socket = net.connect(Number(url.port), url.hostname);
  socket.setNoDelay(true);
  const connected = new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  let waiting: { path: string; resolve: (bytes: number) => void; reject: (err: Error) => void } | null = null;
  let buffer: Buffer = Buffer.alloc(0);
  const fail = (err: Error) => {
    const w = waiting;
    waiting = null;
    w?.reject(err);
  };
  socket.on("error", fail);
  socket.on("close", () => fail(new Error("the server closed the connection")));

  /** The body's length once the whole response is in `buffer`; -1 while more is to come. */
  const complete = (bodyStart: number, head: string): number => {
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (length) return buffer.length >= bodyStart + Number(length[1]) ? Number(length[1]) : -1;
    if (!/\r\ntransfer-encoding: *chunked/i.test(head)) throw new Error(`no framing in: ${head}`);
    let at = bodyStart;
    let bytes = 0;
    for (;;) {
      const lineEnd = buffer.indexOf("\r\n", at);
      if (lineEnd < 0) return -1;
      const size = parseInt(buffer.toString("latin1", at, lineEnd), 16);
      const next = lineEnd + 2 + size + 2;
      if (buffer.length < next) return -1;
      if (size === 0) return bytes;
      bytes += size;
      at = next;
    }
  };
  socket.on("data", (chunk: Buffer) => {
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    if (!waiting) return;
    const headEnd = buffer.indexOf("\r\n\r\n");
    if (headEnd < 0) return;
    const head = buffer.toString("latin1", 0, headEnd);
    let bytes: number;
    try {
      bytes = complete(headEnd + 4, head);
    } catch (err) {
      return fail(err as Error);
    }
    if (bytes < 0) return;
    const w = waiting;
    waiting = null;
    buffer = Buffer.alloc(0);
    const status = Number(head.slice(9, 12));
    if (status === 200) w.resolve(bytes);
    else w.reject(new Error(`GET ${w.path}: ${status}`));
  });

  const requestFor = new Map<string, Buffer>();
  const get = async (pathAndQuery: string): Promise<number> => {
    await connected;
    let request = requestFor.get(pathAndQuery);
    if (!request) {
      request = Buffer.from(
        `GET ${pathAndQuery} HTTP/1.1\r\nHost: ${url.host}\r\n` + (cookie ? `Cookie: ${cookie}\r\n` : "") + "\r\n",
        "latin1",
      );
      requestFor.set(pathAndQuery, request);
    }
    return new Promise<number>((resolve, reject) => {
      waiting = { path: pathAndQuery, resolve, reject };
      socket.write(request);
    });
  };
  return { get, close: () => socket.destroy() };
}

// ---------------------------------------------------------------------------------------------
// The real server as a child process

/**
 * The server bundle `npm start` runs (build/server/main.mjs, rebuilt when stale; decision 0015), as
 * production runs it (NODE_ENV=production, LOG_LEVEL info by
 * default, JSON lines written straight to a log file so that this process spends nothing on them),
 * the scheduler off and the rate limits out of the way. Stopped with SIGTERM (main.ts closes the
 * app and the database, and a --cpu-prof profile is written on that exit).
 */
/** The server bundle of `npm start`, built first when missing or older than its sources. */
async function serverBundle(): Promise<string> {
  // The shared build helper is plain JavaScript without types.
  const helper = "../lib/build-server.mjs";
  const { buildServerIfStale } = (await import(helper)) as { buildServerIfStale: () => string };
  return buildServerIfStale();
}

export class ServerChild {
  private exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;

  private constructor(
    readonly base: string,
    readonly pid: number,
    readonly logFile: string,
    private readonly child: ReturnType<typeof spawn>,
  ) {
    this.exited = new Promise((resolve) =>
      child.on("exit", (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      }),
    );
  }

  static async start(o: {
    bench: Pick<BenchDatabase, "kind" | "dataDir" | "databaseUrl">;
    webDir: string;
    nodeArgs?: string[];
    env?: Record<string, string>;
    timeoutMs?: number;
  }): Promise<ServerChild> {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const logFile = path.join(o.bench.dataDir, `server-${port}.log`);
    const out = fs.openSync(logFile, "a");
    const child = spawn(process.execPath, [...(o.nodeArgs ?? []), await serverBundle()], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(port),
        PUBLIC_URL: base,
        DATABASE_URL: o.bench.databaseUrl ?? "",
        DATA_DIR: o.bench.dataDir,
        WEB_DIR: o.webDir,
        SESSION_SECRET,
        SMTP_URL: "",
        ADMIN_EMAIL: "",
        ADMIN_PASSWORD: "",
        SCHEDULER: "off",
        LOG_LEVEL: "info",
        API_RATE_LIMIT: "1000000",
        SIGNIN_IP_LIMIT: "1000000",
        SIGNIN_ACCOUNT_LIMIT: "1000000",
        ...o.env,
      },
      stdio: ["ignore", out, out],
    });
    fs.closeSync(out);
    const server = new ServerChild(base, child.pid!, logFile, child);
    const deadline = Date.now() + (o.timeoutMs ?? 120_000);
    for (;;) {
      try {
        if ((await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(2000) })).ok) return server;
      } catch {
        /* not listening yet */
      }
      if (server.exit || Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(
          `the server did not start (${server.exit ? `exit ${server.exit.code ?? server.exit.signal}` : "timed out"}):\n${server.logTail()}`,
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** The last lines of its log. */
  logTail(lines = 30): string {
    try {
      return fs.readFileSync(this.logFile, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
    } catch {
      return "(no log)";
    }
  }

  /** Resident set size now, from /proc. */
  rssMb(): number {
    const status = fs.readFileSync(`/proc/${this.pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
  }

  /** SIGTERM and wait (SIGKILL after `timeoutMs`); true when it stopped by itself. */
  async stop(timeoutMs = 30_000): Promise<boolean> {
    if (this.exit) return true;
    this.child.kill("SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    const stopped = await Promise.race([
      this.exited.then(() => true),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), timeoutMs))),
    ]);
    clearTimeout(timer);
    if (!stopped) {
      this.child.kill("SIGKILL");
      await this.exited;
    }
    return stopped;
  }
}

// ---------------------------------------------------------------------------------------------
// Other processes and the browser

/** Runs a command, its output shown indented as it comes and kept; resolves with its exit code and stdout. */
export function runCommand(
  command: string,
  args: string[],
  o: { env?: Record<string, string>; indent?: string } = {},
): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...o.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    const indent = o.indent ?? "    ";
    const show = (text: string, stream: NodeJS.WriteStream) => {
      for (const line of text.split("\n")) {
        // The --json line is for run.ts, not for the reader.
        if (line && !line.startsWith('{"figures"')) stream.write(`${indent}${line}\n`);
      }
    };
    let pending = "";
    child.stdout.on("data", (chunk: Buffer) => {
      const text = pending + chunk.toString("utf8");
      stdout += chunk.toString("utf8");
      const cut = text.lastIndexOf("\n");
      pending = cut < 0 ? text : text.slice(cut + 1);
      if (cut >= 0) show(text.slice(0, cut), process.stdout);
    });
    child.stderr.on("data", (chunk: Buffer) => show(chunk.toString("utf8").trimEnd(), process.stderr));
    child.on("error", reject);
    child.on("close", (code) => {
      if (pending) show(pending, process.stdout);
      resolve({ code, stdout });
    });
  });
}

/** scripts/lib/build-web.mjs (plain JavaScript without types). */
export async function webBuild() {
  const helper = "../lib/build-web.mjs";
  return (await import(helper)) as { buildWebIfStale: () => boolean; buildWebInto: (outDir: string) => void };
}

/** dist/, built first when it is missing or older than its sources (as `npm start` does). */
export async function builtWebDir(): Promise<string> {
  (await webBuild()).buildWebIfStale();
  return path.join(root, "dist");
}

export function chromiumPath(): string {
  const found = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
    (p) => p && fs.existsSync(p),
  );
  if (!found) throw new Error("Chromium not found: set CHROMIUM_PATH");
  return found;
}
