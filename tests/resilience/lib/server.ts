import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { root, sleep } from "./util.ts";

export interface ServerOptions {
  /** Shown in logs and used as the SMTP client name (EHLO), so the SMTP server knows who sent what. */
  name: string;
  port: number;
  databaseUrl: string;
  dataDir: string;
  webDir: string;
  logDir: string;
  sessionSecret: string;
  smtpUrl?: string;
  scheduler?: "on" | "off";
  logLevel?: string;
  env?: Record<string, string>;
}

/**
 * The real server as `npm run serve` runs it, one process (`node --import tsx server/main.ts`, so
 * that a SIGKILL reaches the server itself and not a wrapper), its output kept in a log file.
 */
export class AppServer {
  readonly url: string;
  private child: ChildProcess | null = null;
  private output = "";
  private exited: Promise<void> = Promise.resolve();
  /** How the last process ended (exit code or signal). */
  lastExit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  /** Every process started under this name, for the log file. */
  starts = 0;

  constructor(readonly opts: ServerOptions) {
    this.url = `http://127.0.0.1:${opts.port}`;
  }

  get pid() {
    return this.child?.pid ?? 0;
  }

  get running() {
    return this.child !== null && this.lastExit === null;
  }

  /** Everything the server printed since it was first started. */
  get log() {
    return this.output;
  }

  env(): NodeJS.ProcessEnv {
    const o = this.opts;
    return {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(o.port),
      PUBLIC_URL: this.url,
      DATABASE_URL: o.databaseUrl,
      DATA_DIR: o.dataDir,
      WEB_DIR: o.webDir,
      SESSION_SECRET: o.sessionSecret,
      SMTP_URL: o.smtpUrl ? `${o.smtpUrl}&name=${encodeURIComponent(o.name)}` : "",
      SCHEDULER: o.scheduler ?? "off",
      LOG_LEVEL: o.logLevel ?? "warn",
      // As the e2e runner: many sign-ins from 127.0.0.1; the limits themselves have API tests.
      SIGNIN_IP_LIMIT: "1000000",
      SIGNIN_ACCOUNT_LIMIT: "1000000",
      API_RATE_LIMIT: "1000000",
      ...o.env,
    };
  }

  /** Starts the process and waits until /readyz answers 200. */
  async start(timeoutMs = 60_000): Promise<void> {
    if (this.running) throw new Error(`${this.opts.name} is already running`);
    this.starts++;
    this.lastExit = null;
    const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
      cwd: root,
      env: this.env(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    const logFile = path.join(this.opts.logDir, `${this.opts.name}.log`);
    fs.mkdirSync(this.opts.logDir, { recursive: true });
    const stamp = `\n----- ${this.opts.name} start #${this.starts} (pid ${child.pid}) ${new Date().toISOString()}\n`;
    this.output += stamp;
    fs.appendFileSync(logFile, stamp);
    const keep = (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      this.output += text;
      fs.appendFileSync(logFile, text);
    };
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    this.exited = new Promise((resolve) =>
      child.on("exit", (code, signal) => {
        this.lastExit = { code, signal };
        resolve();
      }),
    );
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        const res = await fetch(`${this.url}/readyz`, { signal: AbortSignal.timeout(2000) });
        if (res.ok) return;
      } catch {
        /* not listening yet */
      }
      if (this.lastExit)
        throw new Error(`${this.opts.name} exited while starting:\n${this.output.slice(-2000)}`);
      if (Date.now() > deadline) {
        this.kill("SIGKILL");
        throw new Error(
          `${this.opts.name} was not ready within ${timeoutMs} ms:\n${this.output.slice(-2000)}`,
        );
      }
      await sleep(100);
    }
  }

  /** Sends a signal (SIGKILL: the process dies where it stands). */
  kill(signal: NodeJS.Signals = "SIGKILL") {
    if (this.running) this.child!.kill(signal);
  }

  /** Resolves when the process has exited, or false after `timeoutMs`. */
  async waitExit(timeoutMs = 15_000): Promise<boolean> {
    if (!this.child) return true;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const done = await Promise.race([this.exited.then(() => true as const), timedOut]);
    clearTimeout(timer);
    return done;
  }

  /** Graceful stop (SIGTERM); SIGKILL if it has not exited within `timeoutMs`. True if it stopped by itself. */
  async stop(timeoutMs = 15_000): Promise<boolean> {
    if (!this.running) return true;
    this.kill("SIGTERM");
    if (await this.waitExit(timeoutMs)) return true;
    this.kill("SIGKILL");
    await this.waitExit(5000);
    return false;
  }

  /** SIGKILL and wait for the process to be gone. */
  async crash(): Promise<void> {
    this.kill("SIGKILL");
    await this.waitExit(10_000);
  }
}
