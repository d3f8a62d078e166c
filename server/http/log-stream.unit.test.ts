import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { bufferedLogStream } from "./log-stream.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function tempFile() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-log-"));
  dirs.push(dir);
  return path.join(dir, "server.log");
}

/** Ends the stream (what waits is written) and resolves once its file descriptor is closed. */
const closed = (stream: ReturnType<typeof bufferedLogStream>) =>
  new Promise<void>((resolve) => {
    stream.once("close", () => resolve());
    stream.end();
  });

describe("bufferedLogStream", () => {
  it("holds lines back, then writes them within the flush interval", async () => {
    const file = tempFile();
    const fd = fs.openSync(file, "a");
    const stream = bufferedLogStream(fd, 100);
    const log = pino({ base: null }, stream);
    log.info({ n: 1 }, "first");
    log.info({ n: 2 }, "second");
    // Far below 4 KB: nothing written yet, one write later for both.
    expect(fs.readFileSync(file, "utf8")).toBe("");
    await expect.poll(() => fs.readFileSync(file, "utf8").split("\n").filter(Boolean).length, { timeout: 2000 }).toBe(2);
    const lines = fs.readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => l.msg)).toEqual(["first", "second"]);
    await closed(stream);
  });

  it("writes a batch at once when 4 KB are waiting", async () => {
    const file = tempFile();
    const fd = fs.openSync(file, "a");
    const stream = bufferedLogStream(fd, 60_000);
    const log = pino({ base: null }, stream);
    for (let i = 0; i < 100; i++) log.info({ i, pad: "x".repeat(60) }, "line");
    // The writes are asynchronous; what matters is that they were started without the timer.
    await expect.poll(() => fs.readFileSync(file, "utf8").length, { timeout: 2000 }).toBeGreaterThan(4096);
    await closed(stream);
  });

  it("loses nothing when the process exits right after logging", () => {
    // A real process: pino writes what waits synchronously on exit.
    const script = `
      import pino from "pino";
      import { bufferedLogStream } from ${JSON.stringify(path.resolve(import.meta.dirname, "log-stream.ts"))};
      const log = pino({ base: null }, bufferedLogStream());
      for (let i = 0; i < 3; i++) log.info({ i }, "before exit");
      process.exit(0);
    `;
    const res = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
      cwd: path.resolve(import.meta.dirname, "../.."),
    });
    expect(res.status, res.stderr).toBe(0);
    const lines = res.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => l.i)).toEqual([0, 1, 2]);
  });
});
