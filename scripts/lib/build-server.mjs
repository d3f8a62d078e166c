// Bundles the server into build/server/ for `npm start` when it is missing or older than its sources
// (decision 0015). The serving process then runs plain JavaScript: a TypeScript loader (tsx) keeps a
// thread of its own and every module's source twice, ~80 MB of the server's memory, and seconds of
// start-up. Packages stay in node_modules (not bundled); the app is split at main.ts's dynamic imports,
// so a new embedded database is made while the app's modules load.
import fs from "node:fs";
import path from "node:path";
import { buildSync } from "esbuild";
import { newestMtime, root } from "./build-web.mjs";

export const serverOutDir = path.join(root, "build", "server");
export const serverEntry = path.join(serverOutDir, "main.mjs");

/** Builds the bundle into outDir: main.mjs, its chunks, and the files server code finds beside itself. */
export function buildServerInto(outDir) {
  fs.rmSync(outDir, { recursive: true, force: true });
  buildSync({
    absWorkingDir: root,
    entryPoints: { main: "server/main.ts" },
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    outdir: outDir,
    outExtension: { ".js": ".mjs" },
    // Chunks beside main.mjs: modules that find files through import.meta.url all see this folder.
    chunkNames: "[name]-[hash]",
    sourcemap: "linked",
    logLevel: "warning",
  });
  // What server code reads beside itself (server/db/migrate.ts, server/db/pglite-create.ts, the reader).
  fs.cpSync(path.join(root, "server", "db", "migrations"), path.join(outDir, "migrations"), {
    recursive: true,
  });
  fs.copyFileSync(
    path.join(root, "server", "db", "pglite-create.child.mjs"),
    path.join(outDir, "pglite-create.child.mjs"),
  );
  // The document reader's child process and its modules (server/features/documents/read/reader-process.ts).
  const reader = path.join(root, "server", "features", "documents", "read");
  for (const file of fs.readdirSync(reader).filter((name) => name.endsWith(".child.mjs")))
    fs.copyFileSync(path.join(reader, file), path.join(outDir, file));
}

/** Builds the bundle into build/server/: built aside and swapped in, so an interrupted build leaves no half bundle. */
export function buildServer() {
  const temp = `${serverOutDir}.tmp-${process.pid}`;
  buildServerInto(temp);
  fs.rmSync(serverOutDir, { recursive: true, force: true });
  fs.renameSync(temp, serverOutDir);
  return serverEntry;
}

/** Returns the bundle's entry, rebuilt first when any server or shared source is newer (esbuild is a dependency). */
export function buildServerIfStale() {
  const sources = ["server", "shared", "package.json", "scripts/lib/build-server.mjs"]
    .map((p) => path.join(root, p))
    .filter(fs.existsSync);
  const stale =
    !fs.existsSync(serverEntry) || Math.max(...sources.map(newestMtime)) > fs.statSync(serverEntry).mtimeMs;
  if (stale) buildServer();
  return serverEntry;
}
