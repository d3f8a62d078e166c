// Builds the web app when dist/ is missing or older than its sources (used by `npm start` and the e2e runner).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "..", "..");

/** The newest modification time of a file or of anything below a folder. */
export function newestMtime(p) {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const entry of fs.readdirSync(p)) max = Math.max(max, newestMtime(path.join(p, entry)));
  return max;
}

/** Builds into a folder of its own (parallel e2e runs must not share dist/). */
export function buildWebInto(outDir) {
  execFileSync(
    process.execPath,
    [
      path.join(root, "node_modules", "vite", "bin", "vite.js"),
      "build",
      "--logLevel",
      "warn",
      "--outDir",
      outDir,
      "--emptyOutDir",
    ],
    { cwd: root, stdio: "inherit" },
  );
}

/**
 * Whether the web build's tools are installed: not after `npm ci --omit=dev` (decision 0026). Vite
 * itself may be there all the same (better-auth's optional peer vitest brings it), its React plugin
 * and TypeScript are not.
 */
export const hasBuildTools = () =>
  ["vite/bin/vite.js", "@vitejs/plugin-react/package.json"].every((f) =>
    fs.existsSync(path.join(root, "node_modules", f)),
  );

/**
 * Builds dist/ when it is missing or older than its sources, if the build tools are installed. A
 * production install (`npm ci --omit=dev`) has none: it serves the dist/ the release shipped
 * (decision 0026), and without one it stops with what to do.
 */
export function buildWebIfStale() {
  const built = path.join(root, "dist", "index.html");
  if (!hasBuildTools()) {
    if (fs.existsSync(built)) return false;
    throw new Error(
      "The web app is not built (dist/ is missing) and the build tools are not installed (npm ci --omit=dev). " +
        "Install a release (npm run release -- --out DIR on a machine with the dev dependencies, docs/OPERATIONS.md), " +
        "or run `npm ci && npm run build` here.",
    );
  }
  const sources = ["web", "shared", "index.html", "vite.config.ts"]
    .map((p) => path.join(root, p))
    .filter(fs.existsSync);
  const stale = !fs.existsSync(built) || Math.max(...sources.map(newestMtime)) > fs.statSync(built).mtimeMs;
  if (!stale) return false;
  console.log("Building the web app (first start or sources changed)...");
  execFileSync(
    process.execPath,
    [path.join(root, "node_modules", "vite", "bin", "vite.js"), "build", "--logLevel", "warn"],
    {
      cwd: root,
      stdio: "inherit",
    },
  );
  return true;
}
