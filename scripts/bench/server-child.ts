import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { freePort } from "./bench-app.ts";
import type { BenchDatabase } from "./bench-database.ts";
import { root, SESSION_SECRET } from "./lib.ts";

/** The V8 flags `npm start` gives the server (scripts/lib/node-flags.mjs, plain JavaScript). */
async function startFlags(embedded: boolean): Promise<string[]> {
  const helper = "../lib/node-flags.mjs";
  const { serverNodeFlags } = (await import(helper)) as {
    serverNodeFlags: (o: { embedded: boolean }) => string[];
  };
  return serverNodeFlags({ embedded });
}

/** The server bundle of `npm start`, built first when missing or older than its sources. */
async function serverBundle(): Promise<string> {
  // The shared build helper is plain JavaScript without types.
  const helper = "../lib/build-server.mjs";
  const { buildServerIfStale } = (await import(helper)) as { buildServerIfStale: () => string };
  return buildServerIfStale();
}

/**
 * The real server as a child process: the server bundle `npm start` runs (build/server/main.mjs,
 * rebuilt when stale; decision 0015) with the V8 flags it gives it (decision 0025; `nodeArgs` come
 * after them), as production runs it (NODE_ENV=production, LOG_LEVEL info by
 * default, JSON lines written straight to a log file so that this process spends nothing on them),
 * the scheduler off and the rate limits out of the way. Stopped with SIGTERM (main.ts closes the
 * app and the database, and a --cpu-prof profile is written on that exit).
 */
export class ServerChild {
  private exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;

  private constructor(
    readonly base: string,
    readonly pid: number,
    readonly logFile: string,
    private readonly child: ReturnType<typeof spawn>,
    /** The V8 flags npm start's choice gave it (before `nodeArgs`). */
    readonly flags: string[],
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
    /** The Node binary (default this process's: the machine's Node; scripts/lib/node24.mjs for Node 24). */
    node?: string;
    env?: Record<string, string>;
    timeoutMs?: number;
  }): Promise<ServerChild> {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const logFile = path.join(o.bench.dataDir, `server-${port}.log`);
    const out = fs.openSync(logFile, "a");
    const node = o.node ?? process.execPath;
    const flags = await startFlags(!o.bench.databaseUrl);
    const child = spawn(node, [...flags, ...(o.nodeArgs ?? []), await serverBundle()], {
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
    const server = new ServerChild(base, child.pid!, logFile, child, flags);
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
    return this.statusMb("VmRSS");
  }

  /** The peak resident set size of its life so far (the kernel's high-water mark), from /proc. */
  peakRssMb(): number {
    return this.statusMb("VmHWM");
  }

  /** CPU time it has used (user + system), from /proc: what a run costs, however busy the machine is. */
  cpuSeconds(): number {
    const stat = fs.readFileSync(`/proc/${this.pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime, fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  }

  private statusMb(field: "VmRSS" | "VmHWM"): number {
    const status = fs.readFileSync(`/proc/${this.pid}/status`, "utf8");
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) / 1024;
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
