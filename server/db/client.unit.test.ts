import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { acquireDataDirLock, DataDirLockedError, readDataDirLock } from "./client.ts";

const lockModule = path.resolve("server/db/client.ts");

/** Starts a second process that takes the lock and holds it until killed. */
async function holdLockInChild(dataDir: string) {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "-e",
      `const { acquireDataDirLock } = await import(${JSON.stringify(lockModule)});
       acquireDataDirLock(${JSON.stringify(dataDir)}).update({ port: 4321 });
       console.log("locked"); setInterval(() => {}, 1000);`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => d.toString().includes("locked") && resolve());
    child.on("exit", (code) => reject(new Error(`child exited ${code}`)));
  });
  return child;
}

describe("data directory lock", () => {
  it("creates a missing data directory and refuses a second process on it with a clear message", async () => {
    const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-lock-")), "nested", "data");
    const child = await holdLockInChild(dataDir);
    try {
      expect(fs.existsSync(dataDir)).toBe(true);
      expect(() => acquireDataDirLock(dataDir)).toThrow(DataDirLockedError);
      expect(() => acquireDataDirLock(dataDir)).toThrow(
        /already in use by another Permitrack process \(pid \d+\)/,
      );
      expect(readDataDirLock(dataDir)).toMatchObject({ pid: child.pid, port: 4321 });
    } finally {
      child.kill("SIGKILL");
      await new Promise((r) => child.on("exit", r));
    }
    // the holder died without cleaning up: its stale lock is taken over
    expect(readDataDirLock(dataDir)).toBeNull();
    const lock = acquireDataDirLock(dataDir);
    expect(readDataDirLock(dataDir)?.pid).toBe(process.pid);
    lock.release();
    expect(fs.existsSync(lock.file)).toBe(false);
    // The child loads TypeScript through tsx: seconds on a busy machine.
  }, 30_000);
});
