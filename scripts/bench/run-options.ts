/** `npm run bench`'s command line: which sections on which databases, and how big (--quick). */
import { arg, hasFlag, type DbKind } from "./lib.ts";
import { BENCH, QUICK_SCALE } from "./permits-data.ts";

export const SECTIONS = [
  "api",
  "throughput",
  "browser",
  "profile",
  "bonds",
  "import-export",
  "reminders",
  "memory",
  "startup",
  "documents",
  "packet",
] as const;
export type Section = (typeof SECTIONS)[number];

/** The sizes of a run: a tenth of the data and shorter runs with --quick. */
function sizes(quick: boolean) {
  return quick
    ? {
        scale: QUICK_SCALE,
        apiRequests: 20,
        loadSeconds: 3,
        warmupSeconds: 1,
        browserRounds: 3,
        bondsRequests: 20,
        importRows: 2_000,
        importRuns: 1,
        reminders: { pg: { permits: 100_000, companies: 100 }, pglite: { permits: 20_000, companies: 20 } },
        memory: { permits: 20_000, companies: 20 },
      }
    : {
        scale: BENCH,
        apiRequests: 300,
        loadSeconds: 10,
        warmupSeconds: 2,
        browserRounds: 8,
        bondsRequests: 100,
        importRows: 10_000,
        importRuns: 3,
        reminders: {
          pg: { permits: 1_000_000, companies: 1000 },
          pglite: { permits: 100_000, companies: 100 },
        },
        memory: { permits: 100_000, companies: 100 },
      };
}
export type RunSizes = ReturnType<typeof sizes>;

/** --quick, --db, --only and --profile, checked (an unknown section or database throws). */
export function runOptions() {
  const quick = hasFlag("quick");
  const dbArg = arg("db");
  if (dbArg && dbArg !== "pg" && dbArg !== "pglite") throw new Error("--db is pg or pglite");
  const dbs: DbKind[] = dbArg ? [dbArg as DbKind] : ["pg", "pglite"];
  const only = arg("only")
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const s of only ?? [])
    if (!SECTIONS.includes(s as Section))
      throw new Error(`--only: unknown section ${s} (${SECTIONS.join(", ")})`);
  const sections = new Set<Section>(
    only ? (only as Section[]) : SECTIONS.filter((s) => s !== "profile" || hasFlag("profile")),
  );
  if (hasFlag("profile")) sections.add("profile");
  // latest.json is the last complete run: every section on both databases at full size.
  const complete = !quick && !only && !dbArg;
  return { quick, dbs, sections, complete, sizes: sizes(quick) };
}
