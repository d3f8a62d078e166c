/**
 * Import and export benchmark (issue "CSV import of permits, and export of the permit list").
 * On a fresh PostgreSQL database of its own (created and dropped here), with the real server
 * listening on 127.0.0.1 and a signed-in company-admin, it measures over HTTP:
 *   - the import of a 10,000-row CSV end to end (upload, parse, validate, insert): budget 5 s
 *   - the export of those 10,000 permits as CSV and as Excel: budget 2 s
 * Each is run RUNS times (import into a fresh company each time) and the median reported.
 *
 * Run: npx tsx scripts/bench/import-export.ts   (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres;
 *      --db=pglite to measure the embedded database instead)
 */
import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { buildApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import { openDatabase } from "../../server/db/client.ts";
import { migrateDatabase } from "../../server/db/migrate.ts";
import { factories } from "../../server/test-support/factories.ts";
import { CSRF_HEADER, CSRF_HEADER_VALUE } from "../../shared/domain/constants.ts";

const ROWS = 10_000;
const RUNS = 3;
const PG_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const usePglite = process.argv.includes("--db=pglite");

function csv(rows: number): string {
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
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  let dbName: string | null = null;
  let admin: pg.Client | null = null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-bench-io-"));
  let databaseUrl: string | undefined;
  if (!usePglite) {
    dbName = `permitrack_bench_io_${Date.now()}`;
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    const u = new URL(PG_URL);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    await migrateDatabase(database);
    const config = loadConfig({
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      LOG_LEVEL: "silent",
      SCHEDULER: "off",
      SESSION_SECRET: "bench-secret-bench-secret-bench-secret-00",
    });
    const app = await buildApp({ config, database, webDir: path.join(dataDir, "none") });
    await app.listen({ host: "127.0.0.1", port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const make = factories(database.db);
    const body = csv(ROWS);
    console.log(
      `database: ${database.kind}; CSV: ${ROWS.toLocaleString()} rows, ${(body.length / 1024 / 1024).toFixed(2)} MB, 200 projects, 40 clients`,
    );

    const importTimes: number[] = [];
    let cookie = "";
    for (let run = 0; run < RUNS; run++) {
      const company = await make.company();
      const user = await make.user({ role: "company-admin", companyId: company.id });
      const signIn = await fetch(`${base}/api/auth/sign-in`, {
        method: "POST",
        headers: { "content-type": "application/json", [CSRF_HEADER]: CSRF_HEADER_VALUE },
        body: JSON.stringify({ email: user.email, password: user.password }),
      });
      cookie = signIn.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
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
      if (res.status !== 200 || result.inserted.length !== ROWS)
        throw new Error(`import failed: ${res.status} ${JSON.stringify(result).slice(0, 300)}`);
    }

    const exportTimes = { csv: [] as number[], xlsx: [] as number[] };
    for (let run = 0; run < RUNS; run++) {
      for (const format of ["csv", "xlsx"] as const) {
        const t0 = performance.now();
        const res = await fetch(`${base}/api/permits/export?format=${format}&show_non_required=true`, {
          headers: { cookie },
        });
        const bytes = (await res.arrayBuffer()).byteLength;
        exportTimes[format].push(performance.now() - t0);
        if (res.status !== 200 || bytes < 100_000)
          throw new Error(`export failed: ${res.status} ${bytes} bytes`);
      }
    }
    await app.close();
    const line = (name: string, xs: number[], budget: number) =>
      console.log(
        `${name.padEnd(40)} median ${(median(xs) / 1000).toFixed(2)} s  (runs: ${xs.map((x) => (x / 1000).toFixed(2)).join(", ")} s; budget ${budget / 1000} s) ${median(xs) <= budget ? "OK" : "OVER BUDGET"}`,
      );
    line(`import ${ROWS.toLocaleString()} rows (HTTP, end to end)`, importTimes, 5000);
    line(`export ${ROWS.toLocaleString()} permits as CSV`, exportTimes.csv, 2000);
    line(`export ${ROWS.toLocaleString()} permits as Excel`, exportTimes.xlsx, 2000);
  } finally {
    await database.close();
    if (admin && dbName) {
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
