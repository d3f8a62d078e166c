// `npm run release -- --out DIR`: a folder to deploy (decision 0026). It holds the repository's files
// (git ls-files: the sources, the migrations, package.json and package-lock.json, the commands'
// scripts) and what `npm run build` makes, dist/ and build/server/, built first when older than their
// sources (--rebuild: always). On the server:
//   cd DIR && npm ci --omit=dev && npm start
// needs no build tools (vite, TypeScript): the dev dependencies stay on the machine that builds.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { buildServer, buildServerIfStale } from "./lib/build-server.mjs";
import { buildWebIfStale, buildWebInto, root } from "./lib/build-web.mjs";

const { values } = parseArgs({ options: { out: { type: "string" }, rebuild: { type: "boolean" } } });
if (!values.out) {
  console.error("Usage: npm run release -- --out DIR [--rebuild]   (DIR must not exist, or be empty)");
  process.exit(1);
}
const out = path.resolve(values.out);
if (fs.existsSync(out) && fs.readdirSync(out).length) {
  console.error(`${out} is not empty.`);
  process.exit(1);
}
const t0 = performance.now();
if (values.rebuild) {
  buildWebInto(path.join(root, "dist"));
  buildServer();
} else {
  buildWebIfStale();
  buildServerIfStale();
}
const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
  .split("\0")
  .filter((f) => f && fs.existsSync(path.join(root, f)));
fs.mkdirSync(out, { recursive: true });
for (const file of tracked) {
  fs.mkdirSync(path.dirname(path.join(out, file)), { recursive: true });
  fs.copyFileSync(path.join(root, file), path.join(out, file));
}
// Copied after the sources, so that they are newer than every source they were built from.
for (const built of ["dist", "build/server"])
  fs.cpSync(path.join(root, built), path.join(out, built), { recursive: true });
console.log(
  `Release in ${out}: ${tracked.length} files, dist/ and build/server/ (${((performance.now() - t0) / 1000).toFixed(1)} s). ` +
    `Install it with: cd ${out} && npm ci --omit=dev && npm start`,
);
