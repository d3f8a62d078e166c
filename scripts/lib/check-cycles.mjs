#!/usr/bin/env node
// Fails when two folders of the code import each other, directly or round a longer loop. ESLint's boundary
// rule (eslint.boundaries.js) says which layer may import which; this says the folders form no cycle, which
// a per-file lint rule cannot see. Tests are left out: a test may reach anything it checks.
//
// A "folder" is a unit of the architecture: each server feature and web feature, each platform folder of
// server/ (db, auth, access, ...), web/app, web/components, web/lib, and each folder of shared/.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SOURCE = /\.(ts|tsx|mjs|js)$/;
const TEST = /\.test\.tsx?$|\/test-support\//;
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** The architectural unit a file belongs to, or null for files outside the checked parts. */
export function unitOf(file) {
  const parts = relative(root, file).split(sep);
  const [top, second, third] = parts;
  if (top === "shared") return parts.length > 2 ? `shared/${second}` : "shared";
  if (top === "server") {
    if (second === "features") return parts.length > 3 ? `server/features/${third}` : "server/features";
    return parts.length > 2 ? `server/${second}` : `server/${second.replace(SOURCE, "")}`;
  }
  if (top === "web") {
    if (second === "features") return parts.length > 3 ? `web/features/${third}` : "web/features";
    return parts.length > 2 ? `web/${second}` : "web";
  }
  return null;
}

function* sourceFiles(dir) {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "migrations") continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (SOURCE.test(name) && !TEST.test(path)) yield path;
  }
}

/** Edges between units: unit -> set of units it imports, with one example import per edge. */
export function unitGraph() {
  const edges = new Map();
  for (const top of ["server", "web", "shared"]) {
    for (const file of sourceFiles(join(root, top))) {
      const from = unitOf(file);
      if (!from) continue;
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(IMPORT)) {
        const spec = match[1] ?? match[2];
        if (!spec.startsWith(".")) continue;
        const to = unitOf(resolve(dirname(file), spec));
        if (!to || to === from) continue;
        if (!edges.has(from)) edges.set(from, new Map());
        if (!edges.get(from).has(to)) edges.get(from).set(to, `${relative(root, file)} -> ${spec}`);
      }
    }
  }
  return edges;
}

/** Strongly connected components of more than one unit (Tarjan). */
export function cycles(edges) {
  let index = 0;
  const stack = [];
  const info = new Map();
  const found = [];
  const visit = (v) => {
    info.set(v, { index, low: index, onStack: true });
    index++;
    stack.push(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!info.has(w)) {
        visit(w);
        info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
      } else if (info.get(w).onStack) {
        info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
      }
    }
    if (info.get(v).low === info.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        info.get(w).onStack = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!info.has(v)) visit(v);
  return found;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const edges = unitGraph();
  const found = cycles(edges);
  if (found.length === 0) {
    console.log(`check-cycles: no import cycle between ${new Set([...edges.keys()]).size} folders`);
    process.exit(0);
  }
  console.error(
    "check-cycles: these folders import each other (a cycle); break it by moving the shared piece down a layer:",
  );
  for (const component of found) {
    console.error(`  ${component.join(" <-> ")}`);
    for (const from of component) {
      for (const [to, example] of edges.get(from) ?? []) {
        if (component.includes(to)) console.error(`      ${from} -> ${to}   e.g. ${example}`);
      }
    }
  }
  process.exit(1);
}
