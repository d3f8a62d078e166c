import { spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";

/**
 * PostgreSQL's client programs (pg_dump, pg_restore, psql), which a server on PostgreSQL needs for
 * its backups: of the server's major version or newer (pg_dump refuses an older one). PG_BIN_DIR
 * names their folder when they are not on the PATH. The password never goes on a command line
 * (other users of the machine can read those): it is handed over in PGPASSWORD.
 */

export function pgProgram(name: "pg_dump" | "pg_restore" | "psql"): string {
  const dir = process.env.PG_BIN_DIR;
  return dir ? `${dir.replace(/\/$/, "")}/${name}` : name;
}

/** The connection for a client program: the URL without its password, and the password in the environment. */
export function connection(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = "";
  return {
    dbname: url.toString(),
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
  };
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  /** Piped into the program's standard input. */
  stdin?: Readable;
  /** Receives its standard output (else it is discarded). */
  stdout?: Writable;
}

/** Runs a client program; rejects with its error output when it fails or is missing. */
export function runProgram(program: string, args: string[], o: RunOptions = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      env: o.env ?? process.env,
      stdio: [o.stdin ? "pipe" : "ignore", o.stdout ? "pipe" : "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      if (stderr.length < 20_000) stderr += chunk.toString();
    });
    if (o.stdin) {
      o.stdin.on("error", (err) => {
        child.kill();
        reject(err);
      });
      child.stdin!.on("error", () => undefined); // the exit code tells
      o.stdin.pipe(child.stdin!);
    }
    if (o.stdout) child.stdout!.pipe(o.stdout, { end: false });
    child.on("error", (err: NodeJS.ErrnoException) =>
      reject(
        err.code === "ENOENT"
          ? new Error(
              `${program} was not found: install PostgreSQL's client programs (of the server's version or newer), or set PG_BIN_DIR to their folder.`,
            )
          : err,
      ),
    );
    child.on("close", (code) =>
      code === 0
        ? resolve()
        : reject(
            new Error(`${program} failed (exit ${code}): ${stderr.trim().split("\n").slice(-5).join(" | ")}`),
          ),
    );
  });
}
