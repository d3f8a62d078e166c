import path from "node:path";
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { precompress } from "./scripts/lib/precompress.ts";

const API_TARGET = "http://127.0.0.1:3000";
const proxy = {
  "/api": { target: API_TARGET, changeOrigin: false },
  "/healthz": { target: API_TARGET },
  "/readyz": { target: API_TARGET },
};

/*
 * Chunks. Every screen is a lazy route (web/app/router.tsx), so what the sign-in page loads is
 * the entry, the "vendor" group below and the login route's own chunks.
 * - "vendor" takes only node_modules reachable from the entry at start-up ($initial): React,
 *   router, TanStack Query, emotion and the MUI core. Nothing that only a lazy screen imports
 *   (icons, recharts, dialogs, tables) can enter it.
 * - "first" holds the first screen after sign-in (the app shell and All Permits with its toolbar's
 *   lazy parts, FIRST_SCREEN below) beyond what the entry and the public pages load, and
 *   "first-ui" the MUI parts it shares with the public pages (the text field's): a first visit of
 *   /permits fetches a handful of files instead of some sixty of a few hundred bytes, and gzip
 *   compresses them together (about 15 KB less). Every signed-in page needs the shell, so it loads
 *   "first" all the same; the public pages never do.
 * - "charts" keeps recharts and its d3/redux helpers in one chunk fetched by chart screens only.
 * - MUI icons need no group: imported by path (@mui/icons-material/Add), each lands in the
 *   automatic chunk of the screens that use it.
 */
const CHART_MODULES =
  /[\\/]node_modules[\\/](recharts|d3-[^\\/]+|victory-vendor|internmap|decimal\.js-light|eventemitter3|es-toolkit|@reduxjs[\\/]toolkit|redux|redux-thunk|react-redux|reselect|immer|use-sync-external-store|tiny-invariant)[\\/]/;
const NODE_MODULES = /[\\/]node_modules[\\/]/;
const web = (file: string) => path.join(import.meta.dirname, "web", file);
const ENTRY = web("main.tsx");
/** The screens a visitor may open first without a session. */
const PUBLIC_SCREENS = [
  "features/auth/routes/login.tsx",
  "features/auth/routes/reset-password.tsx",
  "features/account/routes/two-factor-setup.tsx",
  "features/acknowledge/routes/acknowledge.tsx",
  "features/document-requests/routes/request-link.tsx",
].map(web);
/** The first screen after sign-in: the shell, All Permits and the list's lazy toolbar parts. */
const FIRST_SCREEN = [
  "app/app-shell.tsx",
  "features/permits/routes/permits-list.tsx",
  "features/permits/components/permit-filters.tsx",
  "features/permits/components/saved-views-bar.tsx",
].map(web);

interface ModuleGraph {
  getModuleInfo(id: string): {
    code: string | null;
    importedIds: readonly string[];
    dynamicallyImportedIds: readonly string[];
  } | null;
}
const FEATURE_FACE = /[\\/]web[\\/]features[\\/][^\\/]+[\\/]index\.ts$/;
const resolveFrom = (importer: string, specifier: string) => path.resolve(path.dirname(importer), specifier);
/** The names `code` (of module `id`) imports or re-exports from `from`; null when it cannot tell. */
function namesBetween(code: string | null, id: string, from: string, keyword: "import" | "export") {
  if (code === null) return null;
  const names = new Set<string>();
  const statement = new RegExp(`${keyword}\\s*(?:type\\s*)?\\{([^}]*)\\}\\s*from\\s*["']([^"']+)["']`, "g");
  for (const [, list, specifier] of code.matchAll(statement)) {
    if (!specifier!.startsWith(".") || resolveFrom(id, specifier!) !== from) continue;
    for (const part of list!.split(",")) {
      const [name, alias] = part
        .replace(/^\s*type\s+/, "")
        .split(/\s+as\s+/)
        .map((n) => n.trim());
      if (name) names.add(keyword === "import" ? name : (alias ?? name));
    }
  }
  return names.size ? names : null;
}
/**
 * What module `id` imports. A feature's index.ts only re-exports and is free of side effects (see
 * treeshake below): through it, only the modules whose exports `id` names, as the bundler sees it.
 */
function importsOf(graph: ModuleGraph, id: string): string[] {
  const info = graph.getModuleInfo(id);
  // A face's own imports are followed from its importers, by name.
  if (!info || FEATURE_FACE.test(id)) return [];
  return info.importedIds.flatMap((dep) => {
    const face = FEATURE_FACE.test(dep) ? graph.getModuleInfo(dep) : null;
    const wanted = face ? namesBetween(info.code, id, dep, "import") : null;
    if (!face || !wanted) return [dep];
    const used = face.importedIds.filter((target) => {
      const names = namesBetween(face.code, dep, target, "export");
      return !names || [...names].some((name) => wanted.has(name));
    });
    return [dep, ...used];
  });
}
/** Modules reachable from `roots` by static imports (and by dynamic ones too when `dynamic`). */
function reachable(graph: ModuleGraph, roots: string[], dynamic = false): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...importsOf(graph, id));
    if (dynamic) stack.push(...(graph.getModuleInfo(id)?.dynamicallyImportedIds ?? []));
  }
  return seen;
}
const screens = new WeakMap<ModuleGraph, Record<"start" | "public" | "first", Set<string>>>();
/**
 * The group of a module of the first screen: "first-ui" for a library module the public pages
 * use too, "first" for the rest of it (the start-up's own code stays in the entry), else null.
 * The public pages count with what they fetch later (the sign-in page's validation code).
 */
function firstScreenGroup(id: string, graph: ModuleGraph): "first" | "first-ui" | null {
  let sets = screens.get(graph);
  if (!sets) {
    sets = {
      start: reachable(graph, [ENTRY]),
      public: reachable(graph, PUBLIC_SCREENS, true),
      first: reachable(graph, FIRST_SCREEN),
    };
    screens.set(graph, sets);
  }
  if (!sets.first.has(id)) return null;
  if (sets.public.has(id)) return NODE_MODULES.test(id) ? "first-ui" : null;
  return NODE_MODULES.test(id) || !sets.start.has(id) ? "first" : null;
}

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), precompress()],
  // No public/ folder: the favicon and logo are hashed assets referenced from index.html and web/.
  publicDir: false,
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // Assets stay files (not data: URIs) so the CSP's img-src 'self' covers them plainly.
    assetsInlineLimit: 0,
    rolldownOptions: {
      // A feature's index.ts only re-exports: what another feature does not take from it (one query
      // key of the sureties feature, not its picker) stays out of that feature's chunks.
      treeshake: { moduleSideEffects: [{ test: FEATURE_FACE, sideEffects: false }] },
      output: {
        codeSplitting: {
          groups: [
            {
              // Libraries the entry needs at start-up (React, router, query, MUI core, emotion):
              // one long-cached chunk, shared by every page.
              name: "vendor",
              test: NODE_MODULES,
              tags: ["$initial"],
              priority: 30,
            },
            {
              // Taken before "first", which would otherwise take these along as its dependencies.
              name: (id, graph) => (firstScreenGroup(id, graph) === "first-ui" ? "first-ui" : null),
              debugName: "first-ui",
              priority: 26,
            },
            {
              // Its modules only: what they import from the entry or the public pages stays there.
              name: (id, graph) => (firstScreenGroup(id, graph) === "first" ? "first" : null),
              debugName: "first",
              priority: 25,
              includeDependenciesRecursively: false,
            },
            { name: "charts", test: CHART_MODULES, priority: 20 },
          ],
        },
      },
    },
  },
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
});
