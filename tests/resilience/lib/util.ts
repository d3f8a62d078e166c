import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root folder. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/** Polls until `probe` returns a truthy value; throws after `timeoutMs` naming what it waited for. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T> | T,
  { timeoutMs = 30_000, intervalMs = 100 } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ""}`,
      );
    await sleep(intervalMs);
  }
}

/** A unique, lower-case name part for databases and folders of one run. */
export const runId = `${Date.now().toString(36)}_${process.pid}`;

const cleanups: (() => Promise<void> | void)[] = [];

/** Registers something to undo when the suite ends, however it ends (servers, private PostgreSQL, folders). */
export function onCleanup(fn: () => Promise<void> | void) {
  cleanups.push(fn);
}

/** Runs every registered cleanup, newest first, each at most once; errors are ignored. */
export async function runCleanups() {
  while (cleanups.length) {
    const fn = cleanups.pop()!;
    try {
      await fn();
    } catch {
      /* best effort */
    }
  }
}
