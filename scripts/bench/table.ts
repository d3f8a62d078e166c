/**
 * The figures of a bench run as the markdown table of docs/PERFORMANCE.md: one row per figure,
 * PostgreSQL's and PGlite's side by side, the verdict PostgreSQL's (PGlite's where only PGlite has
 * the figure: the embedded start).
 *
 * Run: npx tsx scripts/bench/table.ts [bench/results/latest.json]
 */
import fs from "node:fs";
import path from "node:path";
import { root, type Figure } from "./lib.ts";

const file = process.argv[2] ?? path.join(root, "bench", "results", "latest.json");
const { figures } = JSON.parse(fs.readFileSync(file, "utf8")) as { figures: Figure[] };

/** Three significant figures at most, no exponent: 0.15, 2.47, 64.8, 762, 5285. */
export function formatValue(v: number | null | undefined): string {
  if (v === null || v === undefined || Number.isNaN(v)) return "";
  const a = Math.abs(v);
  if (a >= 100 || Number.isInteger(v)) return Math.round(v).toString();
  if (a >= 10) return v.toFixed(1);
  return v.toFixed(2);
}

function budgetText(f: Figure): string {
  if (f.budget === null || f.budget === undefined) return "";
  const op = f.budgetKind === "min" ? ">=" : "<=";
  const value = f.unit === "x" ? f.budget.toFixed(2) : String(f.budget);
  return `${op} ${value}${f.judged === "p95" ? " (p95)" : ""}`;
}

const rows = new Map<string, { pg?: Figure; pglite?: Figure }>();
for (const f of figures) {
  const key = `${f.section}\u0000${f.name}`;
  const row = rows.get(key) ?? {};
  row[f.db as "pg" | "pglite"] = f;
  rows.set(key, row);
}
const table = [["section", "figure", "unit", "PostgreSQL median", "p95", "PGlite median", "budget", "verdict"]];
for (const { pg, pglite } of rows.values()) {
  const f = (pg ?? pglite)!;
  table.push([
    f.section,
    f.name,
    f.unit,
    formatValue(pg?.median),
    formatValue(pg ? pg.p95 : null),
    formatValue(pglite?.median),
    budgetText(pg ?? pglite!),
    f.verdict,
  ]);
}
const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
console.log(line(table[0]!));
console.log(`| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`);
for (const r of table.slice(1)) console.log(line(r));
const counts = figures.reduce<Record<string, number>>((c, f) => ((c[f.verdict] = (c[f.verdict] ?? 0) + 1), c), {});
console.log(`\n${JSON.stringify(counts)}`);
