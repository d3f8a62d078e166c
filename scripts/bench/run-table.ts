/** `npm run bench`'s table on the console: PostgreSQL's and PGlite's figures side by side. */
import type { Figure } from "./lib.ts";

const UNIT_DECIMALS: Record<string, number> = { ms: 1, s: 2, x: 3, "req/s": 0, statements: 0, MB: 0, KB: 1 };
function value(x: number | null | undefined, unit: string): string {
  if (x === null || x === undefined) return "";
  if (!Number.isFinite(x)) return String(x);
  const decimals = unit === "ms" && x >= 100 ? 0 : (UNIT_DECIMALS[unit] ?? 1);
  return x.toFixed(decimals);
}
const budgetText = (f: Figure | undefined) =>
  !f || f.budget === null
    ? ""
    : `${f.budgetKind === "min" ? ">=" : "<="}${value(f.budget, f.unit)}${f.judged === "p95" ? " p95" : ""}`;

/** One row per figure; PostgreSQL's and PGlite's side by side; the verdict is the judged one's. */
export function table(all: Figure[]): string {
  const rows: {
    section: string;
    name: string;
    unit: string;
    pg?: Figure;
    pglite?: Figure;
    other?: Figure;
  }[] = [];
  for (const f of all) {
    const key = (r: (typeof rows)[number]) =>
      r.section === f.section && r.name === f.name && r.unit === f.unit;
    let row = rows.find(key);
    if (!row) rows.push((row = { section: f.section, name: f.name, unit: f.unit }));
    if (f.db === "pg") row.pg = f;
    else if (f.db === "pglite") row.pglite = f;
    else row.other = f;
  }
  const verdictOf = (r: (typeof rows)[number]) => {
    const judged = [r.pg, r.pglite, r.other].filter((f): f is Figure => !!f);
    const order = ["error", "over", "pass", "skipped", "info"] as const;
    return order.find((v) => judged.some((f) => f.verdict === v)) ?? "";
  };
  const header = [
    "section",
    "figure",
    "unit",
    "PG median",
    "PG p95",
    "PGlite median",
    "PGlite p95",
    "budget",
    "verdict",
  ];
  const lines = rows.map((r) => {
    const judged = r.pg ?? r.other ?? r.pglite;
    // A budget beside information only (PGlite's figures) stands in parentheses.
    const budget =
      budgetText(judged) && judged?.verdict === "info" ? `(${budgetText(judged)})` : budgetText(judged);
    const verdict = verdictOf(r);
    return [
      r.section,
      r.name,
      r.unit,
      value((r.pg ?? r.other)?.median, r.unit),
      value((r.pg ?? r.other)?.p95, r.unit),
      value(r.pglite?.median, r.unit),
      value(r.pglite?.p95, r.unit),
      budget,
      verdict === "over" ? "OVER" : verdict,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const numeric = new Set([3, 4, 5, 6]);
  const fmt = (cells: string[]) =>
    cells
      .map((c, i) => (numeric.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [fmt(header), widths.map((w) => "-".repeat(w)).join("  "), ...lines.map(fmt)].join("\n");
}
