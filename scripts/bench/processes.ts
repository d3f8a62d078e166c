/** Other processes a benchmark runs (a command, the web build) and the Chromium it drives. */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { root } from "./lib.ts";

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
