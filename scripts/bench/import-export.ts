/**
 * Import and export benchmark (issue "CSV import of permits, and export of the permit list").
 * With the real server listening on 127.0.0.1 and a signed-in company-admin, it measures over HTTP:
 *   - the import of a 10,000-row CSV end to end (upload, parse, validate, insert): budget 5 s
 *   - the export of those 10,000 permits as CSV and as Excel: budget 2 s
 * Each is run RUNS times (import into a fresh company each time) and the median reported.
 * Run by itself it uses a fresh, empty database of its own; `npm run bench` runs it on the
 * permits benchmark's database of 100,000 permits (the imports add to it).
 * Before them, without a database: the CSV reader alone (decodeCsv + parseCsv) on the largest file
 * an import takes, 20,000 rows, 15 times (`--csv-only` runs just that).
 *
 * Run: npx tsx scripts/bench/import-export.ts [--db=pg|pglite] [--json] [--csv-only]
 *      (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 */
import type { Database } from "../../server/db/client.ts";
import { DEFAULT_CSV_LIMITS, decodeCsv, parseCsv } from "../../server/features/imports/csv.ts";
import { factories } from "../../server/test-support/factories.ts";
import { CSRF_HEADER, CSRF_HEADER_VALUE } from "../../shared/domain/constants.ts";
import { signIn, startApp } from "./bench-app.ts";
import { createBenchDatabase } from "./bench-database.ts";
import { dbKinds, figure, hasFlag, isMain, printFigures, stats, type DbKind, type Figure } from "./lib.ts";

export const IMPORT_ROWS = 10_000;
const BUDGET_IMPORT_MS = 5000;
const BUDGET_EXPORT_MS = 2000;

export function csv(rows: number): string {
  const lines = [
    "project,start_date,project_number,project_name,client,permit_number,agency,permit_name,application_date,expiration_date,record_type,status",
  ];
  for (let i = 0; i < rows; i++) {
    const p = i % 200;
    lines.push(
      [
        `Project ${p}`,
        `2026-0${(i % 9) + 1}-1${i % 9}`,
        `BP-${p}`,
        `Project ${p}`,
        `Client ${p % 40}`,
        `PN-${i}`,
        AGENCIES[i % AGENCIES.length]!,
        `Permit ${i} "grading"`,
        `${(i % 12) + 1}/15/2026`,
        i % 5 ? `2027-0${(i % 9) + 1}-01` : "",
        i % 7 ? "permit" : "bond",
        "Required",
      ]
        .map((v) => (/[",]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v))
        .join(","),
    );
  }
  return lines.join("\r\n");
}

const AGENCIES = ["City Building", "County Roads", "State DOT", "Water Board"];

/** The CSV reader alone: decodeCsv and parseCsv over the largest file an import accepts (no database). */
export function benchCsvRead(o: { rows?: number; runs?: number; log?: (line: string) => void } = {}): Figure {
  const rows = o.rows ?? DEFAULT_CSV_LIMITS.maxRows;
  const runs = o.runs ?? 15;
  const log = o.log ?? console.log;
  const bytes = new TextEncoder().encode(csv(rows));
  const times: number[] = [];
  // Two warm-up reads, then the timed ones.
  for (let run = -2; run < runs; run++) {
    const t0 = performance.now();
    const table = parseCsv(decodeCsv(bytes));
    const ms = performance.now() - t0;
    if (table.rows.length !== rows) throw new Error(`read ${table.rows.length} rows of ${rows}`);
    if (run >= 0) times.push(ms);
  }
  const s = stats(times);
  const name = `read a ${rows.toLocaleString()}-row CSV (decode + parse)`;
  log(
    `  ${name.padEnd(40)} median ${s.median.toFixed(1)} ms  (min ${s.min.toFixed(1)}, max ${s.max.toFixed(1)} ms; ` +
      `${(bytes.length / 1024 / 1024).toFixed(2)} MB, ${runs} runs)`,
  );
  return figure({
    section: "import-export",
    db: "-",
    name,
    unit: "ms",
    median: s.median,
    p95: s.p95,
    n: s.n,
  });
}

/**
 * Imports `rows` permits `runs` times into fresh companies of `database`, then exports the last
 * company's permits as CSV and Excel `runs` times each.
 */
export async function benchImportExport(
  database: Database,
  o: { kind: DbKind; dataDir: string; rows?: number; runs?: number; log?: (line: string) => void },
): Promise<Figure[]> {
  const rows = o.rows ?? IMPORT_ROWS;
  const runs = o.runs ?? 3;
  const log = o.log ?? console.log;
  const running = await startApp(database, { dataDir: o.dataDir });
  const base = running.base;
  try {
    const make = factories(database.db);
    const body = csv(rows);
    log(
      `  CSV: ${rows.toLocaleString()} rows, ${(body.length / 1024 / 1024).toFixed(2)} MB, 200 projects, 40 clients; ${runs} runs`,
    );

    const importTimes: number[] = [];
    let cookie = "";
    for (let run = 0; run < runs; run++) {
      const company = await make.company();
      const user = await make.user({ role: "company-admin", companyId: company.id });
      cookie = await signIn(base, user.email, user.password);
      const form = new FormData();
      form.append("file", new Blob([body], { type: "text/csv" }), "bench.csv");
      const t0 = performance.now();
      const res = await fetch(`${base}/api/imports/permits`, {
        method: "POST",
        headers: { cookie, [CSRF_HEADER]: CSRF_HEADER_VALUE },
        body: form,
      });
      const result = (await res.json()) as { inserted: unknown[] };
      importTimes.push(performance.now() - t0);
      if (res.status !== 200 || result.inserted.length !== rows)
        throw new Error(`import failed: ${res.status} ${JSON.stringify(result).slice(0, 300)}`);
    }

    const exportTimes = { csv: [] as number[], xlsx: [] as number[] };
    for (let run = 0; run < runs; run++) {
      for (const format of ["csv", "xlsx"] as const) {
        const t0 = performance.now();
        const res = await fetch(`${base}/api/permits/export?format=${format}&show_non_required=true`, {
          headers: { cookie },
        });
        const bytes = (await res.arrayBuffer()).byteLength;
        exportTimes[format].push(performance.now() - t0);
        if (res.status !== 200 || bytes < rows * 10)
          throw new Error(`export failed: ${res.status} ${bytes} bytes`);
      }
    }
    const n = rows.toLocaleString();
    const figures = [
      { name: `import ${n} rows (CSV upload to saved)`, xs: importTimes, budget: BUDGET_IMPORT_MS },
      { name: `export ${n} permits as CSV`, xs: exportTimes.csv, budget: BUDGET_EXPORT_MS },
      { name: `export ${n} permits as Excel`, xs: exportTimes.xlsx, budget: BUDGET_EXPORT_MS },
    ].map(({ name, xs, budget }) => {
      const s = stats(xs);
      log(
        `  ${name.padEnd(40)} median ${(s.median / 1000).toFixed(2)} s  (runs: ${xs.map((x) => (x / 1000).toFixed(2)).join(", ")} s; ` +
          `budget ${budget / 1000} s) ${s.median <= budget ? "OK" : "OVER BUDGET"}`,
      );
      return figure({
        section: "import-export",
        db: o.kind,
        name,
        unit: "s",
        median: s.median / 1000,
        p95: s.p95 / 1000,
        n: s.n,
        budget: budget / 1000,
      });
    });
    return figures;
  } finally {
    await running.close();
  }
}

if (isMain(import.meta.url)) {
  const figures: Figure[] = [benchCsvRead()];
  for (const kind of hasFlag("csv-only") ? [] : dbKinds(["pg"])) {
    const bench = await createBenchDatabase(kind, "bench_io");
    try {
      console.log(`database: ${kind}`);
      figures.push(...(await benchImportExport(bench.database, { kind, dataDir: bench.dataDir })));
    } finally {
      await bench.dispose();
    }
  }
  if (hasFlag("json")) printFigures(figures);
}
