import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The child program, beside this module (and beside the server bundle: scripts/lib/build-server.mjs copies it). */
const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), "pglite-create.child.mjs");
const TEMP_PREFIX = ".creating-";
/** initdb takes seconds; a child that has not finished in this long is stuck. */
const CHILD_TIMEOUT_MS = 5 * 60_000;

export interface CreatedDirectory {
  /** The child's pid and how long the creation took. */
  pid: number;
  ms: number;
}

export interface CreateOptions {
  /**
   * Where the child keeps the template it copies instead of running initdb again (default
   * node_modules/.cache/permitrack); null: none, initdb every time.
   */
  templates?: string | null;
}

/** True when dbDir holds a PostgreSQL data directory (PG_VERSION is initdb's first file). */
export function isPgliteDirectory(dbDir: string): boolean {
  return fs.existsSync(path.join(dbDir, "PG_VERSION"));
}

/**
 * Makes the embedded database at dbDir in a short-lived child process (decision 0015), migrated with
 * migrationsFolder: the serving process then only opens an existing directory and never holds
 * initdb's WebAssembly heap. The child copies a template of the same PGlite version and migrations
 * when there is one (kept by the first creation), a fraction of initdb's seconds. It works in a
 * sibling folder that is renamed into place only when it has succeeded, so a crash or kill at any
 * point leaves nothing at dbDir to be trusted later. The caller holds the data directory's lock.
 */
export async function createPgliteDirectory(
  dbDir: string,
  migrationsFolder: string | undefined,
  opts: CreateOptions = {},
): Promise<CreatedDirectory> {
  const parent = path.dirname(dbDir);
  const base = path.basename(dbDir);
  fs.mkdirSync(parent, { recursive: true });
  // Leftovers of an attempt that died with its parent (we hold the lock: nobody else is creating).
  for (const entry of fs.readdirSync(parent)) {
    if (entry.startsWith(`${base}${TEMP_PREFIX}`))
      fs.rmSync(path.join(parent, entry), { recursive: true, force: true });
  }
  if (fs.existsSync(dbDir)) {
    // Earlier versions made the folder before initdb: an empty one is that, and safe to replace.
    if (fs.readdirSync(dbDir).length > 0)
      throw new Error(
        `${dbDir} is not empty but holds no database (no PG_VERSION). Move it away to let Permitrack create a new database there.`,
      );
    fs.rmdirSync(dbDir);
  }

  const temp = path.join(parent, `${base}${TEMP_PREFIX}${process.pid}`);
  const started = Date.now();
  const args = [CHILD, temp];
  if (migrationsFolder) args.push("--migrations", migrationsFolder);
  if (opts.templates === null) args.push("--no-templates");
  else if (opts.templates) args.push("--templates", opts.templates);
  // No execArgv: the child is plain JavaScript and needs no TypeScript loader.
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-4000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const timer = setTimeout(() => child.kill("SIGKILL"), CHILD_TIMEOUT_MS);
  const orphan = () => child.kill("SIGKILL"); // the parent exits mid-way: the child must not go on alone
  process.once("exit", orphan);
  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
    (resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code, signal) => resolve({ code, signal }));
    },
  ).finally(() => {
    clearTimeout(timer);
    process.off("exit", orphan);
  });
  if (exit.code !== 0) {
    fs.rmSync(temp, { recursive: true, force: true });
    const how = exit.signal ? `was ended by ${exit.signal}` : `exited with code ${exit.code}`;
    throw new Error(
      `Creating the embedded database at ${dbDir} failed: the child process ${how}.\n${output.trim()}`,
    );
  }
  fs.renameSync(temp, dbDir);
  syncDirectory(parent); // the rename itself on disk
  return { pid: child.pid!, ms: Date.now() - started };
}

function syncDirectory(dir: string) {
  const fd = fs.openSync(dir, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
