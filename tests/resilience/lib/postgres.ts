import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "./util.ts";

/** A database of its own on a shared server (TEST_DATABASE_URL), created here and dropped at the end. */
export async function createDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}

/** Runs one statement on a short-lived connection (the suite's own look into the database). */
export async function query<T extends pg.QueryResultRow>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

function postgresBinDir(): string {
  const base = "/usr/lib/postgresql";
  const versions = fs.existsSync(base)
    ? fs
        .readdirSync(base)
        .filter((v) => fs.existsSync(path.join(base, v, "bin", "pg_ctl")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions.length)
    throw new Error("PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin");
  return path.join(base, versions[0]!, "bin");
}

/**
 * A PostgreSQL server of the suite's own (initdb in a temporary folder, a free port on 127.0.0.1,
 * no Unix socket outside that folder), so that it can be stopped and started under a running app
 * without touching the machine's shared cluster. As root, the binaries run as the `postgres` user.
 */
export class PrivatePostgres {
  readonly dir: string;
  readonly port: number;
  private readonly bin = postgresBinDir();
  private readonly asPostgres = process.getuid?.() === 0;

  private constructor(dir: string, port: number) {
    this.dir = dir;
    this.port = port;
  }

  static async create(): Promise<PrivatePostgres> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-resilience-pg-"));
    const server = new PrivatePostgres(dir, await freePort());
    if (server.asPostgres) {
      const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
      const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
      fs.chownSync(dir, uid, gid);
    }
    server.run("initdb", ["-D", server.dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
    return server;
  }

  get dataDir() {
    return path.join(this.dir, "data");
  }

  url(database = "postgres") {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  private run(tool: string, args: string[]) {
    const exe = path.join(this.bin, tool);
    const [cmd, argv] = this.asPostgres ? ["runuser", ["-u", "postgres", "--", exe, ...args]] : [exe, args];
    const res = spawnSync(cmd, argv, { encoding: "utf8", timeout: 60_000 });
    if (res.status !== 0)
      throw new Error(`${tool} failed (${res.status ?? res.signal}): ${res.stderr || res.stdout}`);
    return res.stdout;
  }

  start() {
    this.run("pg_ctl", [
      "-D",
      this.dataDir,
      "-l",
      path.join(this.dir, "postgres.log"),
      "-o",
      `-p ${this.port} -c listen_addresses=127.0.0.1 -k ${this.dir} -c max_connections=60 -c shared_buffers=32MB`,
      "-w",
      "-t",
      "30",
      "start",
    ]);
  }

  /** A fast shutdown: open sessions are terminated, in-flight transactions roll back. */
  stop() {
    this.run("pg_ctl", ["-D", this.dataDir, "-m", "fast", "-w", "-t", "30", "stop"]);
  }

  dispose() {
    try {
      this.run("pg_ctl", ["-D", this.dataDir, "-m", "immediate", "-w", "-t", "30", "stop"]);
    } catch {
      /* not running */
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
