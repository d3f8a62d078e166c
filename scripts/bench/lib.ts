/**
 * What every benchmark shares: the repository's root, the command line (--db, --json, ...), and the
 * figures `npm run bench` (scripts/bench/run.ts) collects, which a benchmark run by itself prints as
 * its last stdout line with --json: `{"figures":[...]}`; statistics. The rest of what they share has
 * a file each: bench-database.ts (a fresh migrated database), bench-app.ts (the app in this process,
 * signing in), keep-alive-getter.ts (a lean HTTP client), server-child.ts (the real server as a
 * child process), processes.ts (other commands, the built web app, Chromium).
 */
import os from "node:os";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "..", "..");
export type DbKind = "pg" | "pglite";
export const SESSION_SECRET = "bench-secret-bench-secret-bench-secret-01";

/** `--name=value` from the command line. */
export const arg = (name: string): string | undefined =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
export const hasFlag = (name: string): boolean => process.argv.includes(`--${name}`);
/** The databases a benchmark runs on: --db=pg | --db=pglite, else `fallback`. */
export const dbKinds = (fallback: DbKind[] = ["pg", "pglite"]): DbKind[] => {
  const db = arg("db");
  if (db === "both") return ["pg", "pglite"];
  return db ? [db as DbKind] : fallback;
};
export const dbLabel = (kind: DbKind) => (kind === "pg" ? "PostgreSQL" : "PGlite");
/** True when the module is the script node was started with (not imported by run.ts). */
export const isMain = (url: string) => url === `file://${process.argv[1]}`;

// ---------------------------------------------------------------------------------------------
// Figures

export type Verdict = "pass" | "over" | "info" | "error" | "skipped";

export interface Figure {
  section: string;
  name: string;
  /** ms, s, req/s, x (a ratio), statements, MB, KB. */
  unit: string;
  db: DbKind | "-";
  median: number | null;
  p95: number | null;
  budget: number | null;
  /** "max": the figure must stay at or under the budget; "min": at or above it (requests per second). */
  budgetKind?: "max" | "min";
  /** Which value the budget judges (default the median). */
  judged?: "median" | "p95";
  verdict: Verdict;
  n?: number;
  note?: string;
}

export type FigureInput = Omit<Figure, "verdict" | "p95" | "budget" | "median"> & {
  median: number | null;
  p95?: number | null;
  budget?: number | null;
  verdict?: Verdict;
};

/** A figure with its verdict: pass or over against its budget, info without one. */
export function figure(f: FigureInput): Figure {
  const out: Figure = { ...f, p95: f.p95 ?? null, budget: f.budget ?? null, verdict: f.verdict ?? "info" };
  if (!f.verdict && out.budget !== null) {
    const value = out.judged === "p95" ? out.p95 : out.median;
    if (value === null || !Number.isFinite(value)) out.verdict = "over";
    else
      out.verdict = (out.budgetKind === "min" ? value >= out.budget : value <= out.budget) ? "pass" : "over";
  }
  return out;
}

/** The last stdout line of a benchmark run with --json. */
export const printFigures = (figures: Figure[]) => console.log(JSON.stringify({ figures }));

/** The figures of a benchmark's `--json` line, if its output has one. */
export function parseFiguresLine(stdout: string): Partial<Figure>[] | null {
  const last = stdout
    .trim()
    .split("\n")
    .reverse()
    .find((l) => l.startsWith('{"figures"'));
  if (!last) return null;
  try {
    return (JSON.parse(last) as { figures: Partial<Figure>[] }).figures;
  } catch {
    return null;
  }
}

export interface Stats {
  median: number;
  p95: number;
  min: number;
  max: number;
  n: number;
}

/** Nearest-rank median and 95th percentile. */
export function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
  return { median: at(0.5), p95: at(0.95), min: sorted[0]!, max: sorted.at(-1)!, n: sorted.length };
}

export const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
