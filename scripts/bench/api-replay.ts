/**
 * API against the replay of its own statements (performance issue, part 5). Signed in as the admin
 * of the company with 10,000 permits (scripts/bench/permits-data.ts), for each hot endpoint:
 *   - the API's median and p95 over real HTTP on 127.0.0.1 (one keep-alive connection of a lean
 *     client, keepAliveGetter() in keep-alive-getter.ts, requests one at a time, the body read to
 *     its end), the app in this process with production's log level and log destination (written
 *     to /dev/null);
 *   - the statements of one request, as the app sent them through drizzle (Database.observeStatements:
 *     text, parameters, begin/commit included): their count, and of those the session's;
 *   - the same statements replayed, in order, as often, on one dedicated connection (PostgreSQL: a
 *     connection checked out of the app's pool, the reads prepared once: see replayerFor(); PGlite:
 *     the same embedded instance the app uses, which this process holds);
 *   - the ratio API median / replay median: what the app adds on top of its database work (budget 1.5).
 * Each endpoint is warmed for WARMUP_MS (500 requests at least), then timed for TIMED_MS (`requests`
 * pairs at least, five times that at most); --quick does neither.
 * On PostgreSQL, EXPLAIN (ANALYZE, BUFFERS) of the list's, the summary's and the dashboard's statements
 * goes to a file (bench/results/plans.txt under `npm run bench`).
 *
 * Run by itself (generates its own data):
 *   npx tsx scripts/bench/api-replay.ts [--db=pg|pglite] [--quick] [--json] [--only=detail,comments,...]
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { signIn, startApp } from "./bench-app.ts";
import { createBenchDatabase, type BenchDatabase } from "./bench-database.ts";
import { keepAliveGetter } from "./keep-alive-getter.ts";
import { arg, dbKinds, dbLabel, figure, hasFlag, isMain, printFigures, stats, type Figure } from "./lib.ts";
import { bufferedLogStream } from "../../server/http/log-stream.ts";
import { BENCH, benchTargets, generatePermitsData, QUICK_SCALE } from "./permits-data.ts";

/** The API's median may be at most this many times its statements' replay. */
export const RATIO_BUDGET = 1.5;
/** A session costs one statement in every request. */
export const SESSION_STATEMENT_BUDGET = 1;

interface Endpoint {
  key: string;
  name: string;
  path: string;
  /** Statements per request in all (session included); null: no budget. */
  statementBudget: number | null;
  /** A budget on the API's median itself (ms). */
  msBudget?: number;
  /** Timed requests are divided by this (the 10,000-row export takes hundreds of times longer). */
  slow?: boolean;
}

export function hotEndpoints(t: { permitId: string; projectId: string }): Endpoint[] {
  return [
    { key: "list", name: "GET /api/permits (first page)", path: "/api/permits", statementBudget: 3 },
    { key: "search", name: "GET /api/permits?q=grading", path: "/api/permits?q=grading", statementBudget: 3 },
    { key: "summary", name: "GET /api/permits/summary", path: "/api/permits/summary", statementBudget: null },
    { key: "detail", name: "GET /api/permits/:id", path: `/api/permits/${t.permitId}`, statementBudget: 2 },
    {
      key: "comments",
      name: "GET /api/permits/:id/comments",
      path: `/api/permits/${t.permitId}/comments`,
      statementBudget: 2,
    },
    {
      key: "audit",
      name: "GET /api/permits/:id/audit",
      path: `/api/permits/${t.permitId}/audit`,
      statementBudget: 2,
    },
    {
      key: "dashboard",
      name: "GET /api/projects/:id/dashboard",
      path: `/api/projects/${t.projectId}/dashboard`,
      statementBudget: 2,
    },
    {
      key: "export",
      name: "GET /api/permits/export (CSV, all rows)",
      // Archived and non-required included: every one of the company's permits.
      path: "/api/permits/export?format=csv&show_archived=true&show_non_required=true",
      statementBudget: null,
      msBudget: 2000,
      slow: true,
    },
  ];
}

interface Statement {
  sql: string;
  params: readonly unknown[];
}

/** Runs a request's statements in order on one connection of its own. */
interface Replayer {
  run(statements: Statement[]): Promise<void>;
  explain?(statement: Statement): Promise<string>;
  close(): Promise<void>;
}

/**
 * PostgreSQL: one connection of the app's own pool (the same driver and connection setup), checked
 * out for the replay while no request runs; each read (select, with) goes as a statement prepared
 * once on that connection, named by a hash of its text: the database's own cost of exactly those
 * statements at its best, parsed and planned once, as the app's prepared statements are (drizzle's
 * .prepare(); the statement observer does not see whether the app named a statement). Whatever the
 * app adds on top, re-planning of statements it does not prepare included, is in the ratio.
 * PGlite: the app's embedded instance itself (its queries are never prepared by name, the app's
 * neither).
 */
async function replayerFor(bench: BenchDatabase): Promise<Replayer> {
  if (bench.kind === "pg") {
    const client = await bench.database.pool!.connect();
    const nameOf = (text: string) =>
      /^\s*(select|with)\b/i.test(text)
        ? `bench_${createHash("sha1").update(text).digest("base64url")}`
        : undefined;
    return {
      run: async (statements) => {
        for (const s of statements)
          await client.query({ name: nameOf(s.sql), text: s.sql }, s.params as unknown[]);
      },
      explain: async (s) => {
        const res = await client.query<{ "QUERY PLAN": string }>(
          `explain (analyze, buffers) ${s.sql}`,
          s.params as unknown[],
        );
        return res.rows.map((r) => r["QUERY PLAN"]).join("\n");
      },
      close: async () => client.release(),
    };
  }
  const pglite = bench.pglite;
  if (!pglite) throw new Error("the PGlite instance is closed");
  return {
    run: async (statements) => {
      for (const s of statements) await pglite.query(s.sql, s.params as unknown[]);
    },
    close: async () => undefined,
  };
}

/** Milliseconds as printed: two decimals under 10 ms (the small reads differ in hundredths), else one. */
const ms = (v: number) => v.toFixed(v < 10 ? 2 : 1);

const isSession = (s: string) => /"sessions"/.test(s);
const isControl = (s: string) =>
  /^\s*(begin|commit|rollback|start transaction|set |savepoint|release)/i.test(s);

export interface ApiReplayOptions {
  /** Timed requests per endpoint (the export: a tenth, at least 3); warm-up a fifth of that. */
  requests: number;
  /** Where EXPLAIN (ANALYZE, BUFFERS) goes (PostgreSQL only); none: not written. */
  plansFile?: string;
  log?: (line: string) => void;
  /** Only these endpoints (their keys: list, search, summary, detail...); none: all of them. */
  only?: string[];
  /**
   * How long each endpoint is warmed at least before it is timed (and 500 requests at least, the
   * export a fifth of its timed ones); WARMUP_MS by default.
   */
  warmupMs?: number;
  /** How long each endpoint is timed at least (and `requests` pairs at least); TIMED_MS by default. */
  timedMs?: number;
}

/**
 * An endpoint's requests are timed once the server has answered it this long: V8 optimises a
 * function after some hundreds of calls, but a small read's median kept falling for a few thousand
 * (detail 1.61, 1.49, 1.47, 1.40, 1.38 times its replay in five rounds of 300 after 500 requests;
 * 1.27 to 1.35 after 3,000). A server under steady traffic is past that within seconds.
 */
export const WARMUP_MS = 3000;
/**
 * The timed pairs (a request, then a replay) go on for this long at least, up to five times
 * `requests`: the small reads, whose ratio moves with a few microseconds, get a steadier median.
 */
export const TIMED_MS = 3000;

/** The figures of every hot endpoint on a database already filled by generatePermitsData(). */
export async function benchApiReplay(bench: BenchDatabase, o: ApiReplayOptions): Promise<Figure[]> {
  const log = o.log ?? console.log;
  const database = bench.database;
  const targets = await benchTargets(database);
  const endpoints = hotEndpoints(targets).filter((e) => !o.only?.length || o.only.includes(e.key));
  const devNull = bufferedLogStream(fs.openSync("/dev/null", "w"));
  const running = await startApp(database, {
    dataDir: bench.dataDir,
    // As main.ts in production: JSON lines at "info", buffered (here written to /dev/null).
    logger: { level: "info", stream: devNull },
  });
  const replayer = await replayerFor(bench);
  const figures: Figure[] = [];
  const plans: string[] = [];
  const section = "api";
  try {
    const cookie = await signIn(running.base, BENCH.users.admin, BENCH.password);
    const client = keepAliveGetter(running.base, cookie);
    try {
      // The floor under every ratio: one HTTP round trip of this client to this server on a route
      // that does no database work and sends 16 bytes (security headers and the request log
      // included), measured the same way. An endpoint whose statements replay in less than twice
      // this cannot reach a ratio of 1.5 even if the app added nothing of its own.
      {
        const floor: number[] = [];
        // Warmed as long as the endpoints below are by the time they are timed (JIT, sockets).
        for (let i = 0; i < 1000; i++) await client.get("/healthz");
        for (let i = 0; i < o.requests; i++) {
          const t = performance.now();
          await client.get("/healthz");
          floor.push(performance.now() - t);
        }
        const f = stats(floor);
        log(
          `  ${"GET /healthz (HTTP round trip, no database)".padEnd(40)} ${f.median.toFixed(2)} ms (p95 ${f.p95.toFixed(2)})`,
        );
        figures.push(
          figure({
            section,
            db: bench.kind,
            name: "GET /healthz: HTTP round trip without database work (the floor of every API figure)",
            unit: "ms",
            median: f.median,
            p95: f.p95,
            n: o.requests,
          }),
        );
      }
      let sessionCount: number | null = null;
      for (const e of endpoints) {
        const n = e.slow ? Math.max(3, Math.round(o.requests / 10)) : o.requests;
        // Warmed as a server under steady traffic is: WARMUP_MS and 500 requests at least, the
        // export a fifth of its timed ones.
        const warmup = e.slow ? Math.max(2, Math.round(n / 5)) : Math.max(500, Math.round(n / 5));
        const warmUntil = performance.now() + (e.slow ? 0 : (o.warmupMs ?? WARMUP_MS));
        let bytes = 0;
        for (let i = 0; i < warmup || performance.now() < warmUntil; i++) bytes = await client.get(e.path);

        // The statements of one request (nothing else runs meanwhile: requests go one at a time).
        const statements: Statement[] = [];
        const stop = database.observeStatements((sql, params) =>
          statements.push({ sql, params: [...params] }),
        );
        try {
          await client.get(e.path);
        } finally {
          stop();
        }
        const session = statements.filter((s) => isSession(s.sql)).length;
        if (e.key === "detail") sessionCount = session;

        // API and replay alternate, one request then one replay: whatever else the machine does
        // meanwhile weighs on both alike.
        for (let i = 0; i < warmup; i++) await replayer.run(statements);
        const api: number[] = [];
        const replay: number[] = [];
        const timedUntil = performance.now() + (e.slow ? 0 : (o.timedMs ?? TIMED_MS));
        for (let i = 0; i < n || (i < 5 * n && performance.now() < timedUntil); i++) {
          let t = performance.now();
          await client.get(e.path);
          api.push(performance.now() - t);
          t = performance.now();
          await replayer.run(statements);
          replay.push(performance.now() - t);
        }
        const a = stats(api);
        const r = stats(replay);
        const ratio = a.median / r.median;
        const timed = api.length;
        log(
          `  ${e.name.padEnd(40)} API ${ms(a.median).padStart(7)} ms (p95 ${ms(a.p95)})  ` +
            `replay ${ms(r.median).padStart(7)} ms (p95 ${ms(r.p95)})  ${ratio.toFixed(2)}x  ` +
            `${statements.length} statements (${session} session)  ${(bytes / 1024).toFixed(0)} KB  n=${timed}`,
        );
        figures.push(
          figure({
            section,
            db: bench.kind,
            name: `${e.name}: API`,
            unit: "ms",
            median: a.median,
            p95: a.p95,
            n: timed,
            budget: e.msBudget ?? null,
          }),
          figure({
            section,
            db: bench.kind,
            name: `${e.name}: replay of its statements`,
            unit: "ms",
            median: r.median,
            p95: r.p95,
            n: timed,
          }),
          figure({
            section,
            db: bench.kind,
            name: `${e.name}: API minus replay (what the app and HTTP add)`,
            unit: "ms",
            median: a.median - r.median,
            n: timed,
          }),
          figure({
            section,
            db: bench.kind,
            name: `${e.name}: API / replay`,
            unit: "x",
            median: ratio,
            p95: a.p95 / r.p95,
            budget: RATIO_BUDGET,
          }),
          figure({
            section,
            db: bench.kind,
            name: `${e.name}: statements`,
            unit: "statements",
            median: statements.length,
            budget: e.statementBudget,
            note: statements.map((s) => s.sql.replace(/\s+/g, " ").slice(0, 120)).join(" | "),
          }),
        );

        if (replayer.explain && o.plansFile && ["list", "summary", "dashboard"].includes(e.key)) {
          plans.push(`${"=".repeat(100)}\n${e.name}  (${e.path})\n${statements.length} statements\n`);
          for (const [i, s] of statements.entries()) {
            plans.push(`--- statement ${i + 1}: ${s.sql}\n--- params: ${JSON.stringify(s.params)}`);
            plans.push(
              isControl(s.sql) ? "(transaction control: no plan)\n" : `${await replayer.explain(s)}\n`,
            );
          }
        }
      }
      figures.push(
        figure({
          section,
          db: bench.kind,
          name: "session: statements in every request",
          unit: "statements",
          median: sessionCount,
          budget: SESSION_STATEMENT_BUDGET,
        }),
      );
    } finally {
      client.close();
    }
  } finally {
    await replayer.close();
    await running.close();
    devNull.end();
  }
  if (o.plansFile && plans.length) {
    fs.mkdirSync(path.dirname(o.plansFile), { recursive: true });
    fs.writeFileSync(
      o.plansFile,
      `EXPLAIN (ANALYZE, BUFFERS) of the statements one request sends, on ${dbLabel(bench.kind)}, ` +
        `signed in as ${BENCH.users.admin} (${targets.permits.toLocaleString()} permits), ${new Date().toISOString()}\n\n` +
        plans.join("\n"),
    );
    log(`  plans: ${path.relative(process.cwd(), o.plansFile)}`);
  }
  return figures;
}

if (isMain(import.meta.url)) {
  const quick = hasFlag("quick");
  const figures: Figure[] = [];
  for (const kind of dbKinds()) {
    console.log(`\n${dbLabel(kind)}`);
    const bench = await createBenchDatabase(kind, "bench_api");
    try {
      await generatePermitsData(bench.database, console.log, quick ? QUICK_SCALE : undefined);
      figures.push(
        ...(await benchApiReplay(bench, {
          requests: Number(arg("requests") ?? (quick ? 20 : 300)),
          plansFile: arg("plans"),
          only: arg("only")?.split(","),
          warmupMs: quick ? 0 : WARMUP_MS,
          timedMs: quick ? 0 : TIMED_MS,
        })),
      );
    } finally {
      await bench.dispose();
    }
  }
  if (hasFlag("json")) printFigures(figures);
}
