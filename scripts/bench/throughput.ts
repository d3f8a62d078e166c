/**
 * Throughput (performance issue, part 5): the real server as a child process (server-child.ts
 * ServerChild: the server bundle of `npm start`, build/server/main.mjs, production mode and log
 * level, its lines to a file), so that the load generator does not share its event loop; autocannon in this process with
 * 50 keep-alive connections, signed in as the admin of the company with 10,000 permits, each for
 * SECONDS after a warm-up: the list's first page (budget 600 requests/s) and a permit's detail
 * (budget 1,000/s), and their latency (p95 under 150 ms). Every response must be a 200: others are
 * counted and reported.
 * On a two-core machine the load generator, the server and PostgreSQL share the cores, as they do
 * whenever client and server run on one machine; autocannon is the lightest of the three.
 *
 * Run by itself (generates its own data): npx tsx scripts/bench/throughput.ts [--db=pg|pglite] [--quick] [--json]
 */
import fs from "node:fs";
import os from "node:os";
import autocannon from "autocannon";
import { signIn } from "./bench-app.ts";
import { createBenchDatabase } from "./bench-database.ts";
import {
  dbKinds,
  dbLabel,
  figure,
  hasFlag,
  isMain,
  printFigures,
  stats,
  type Figure,
  type Stats,
} from "./lib.ts";
import { builtWebDir } from "./processes.ts";
import { ServerChild } from "./server-child.ts";
import { BENCH, benchTargets, generatePermitsData, QUICK_SCALE } from "./permits-data.ts";

export const CONNECTIONS = 50;
export const BUDGETS = { listRps: 600, detailRps: 1000, p95Ms: 150 };

export interface LoadResult {
  /** 200 responses per second over the run. */
  rps: number;
  ok: number;
  /** Responses other than 200, and connection errors or timeouts. */
  failed: number;
  latency: Stats;
  seconds: number;
}

interface CpuSnapshot {
  server: number;
  loadGenerator: number;
  /** By process id: PostgreSQL's backends come and go. */
  postgres: Map<string, number>;
}

/** CPU seconds used so far (Linux's /proc): by `pid`, by this process, by each process named postgres. */
function cpuSnapshot(pid: number): CpuSnapshot | null {
  const ticks = 100; // USER_HZ: the unit of /proc/<pid>/stat's times on Linux
  const of = (statFile: string): { comm: string; seconds: number } | null => {
    try {
      const stat = fs.readFileSync(statFile, "utf8");
      const close = stat.lastIndexOf(")");
      const fields = stat.slice(close + 2).split(" ");
      // After "pid (comm) ": utime and stime are fields 14 and 15 of proc(5), 12 and 13 here.
      return {
        comm: stat.slice(stat.indexOf("(") + 1, close),
        seconds: (+fields[11]! + +fields[12]!) / ticks,
      };
    } catch {
      return null; // gone meanwhile, or no /proc
    }
  };
  const server = of(`/proc/${pid}/stat`);
  if (!server) return null;
  const postgres = new Map<string, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const p = of(`/proc/${entry}/stat`);
    if (p?.comm === "postgres") postgres.set(entry, p.seconds);
  }
  const own = process.cpuUsage();
  return { server: server.seconds, postgres, loadGenerator: (own.user + own.system) / 1e6 };
}

/**
 * The cores each side kept busy between two snapshots (1 = one core all the time): the server,
 * PostgreSQL (every postgres process of the machine, so an otherwise idle one), this process's
 * load generator.
 */
function coresBetween(before: CpuSnapshot, after: CpuSnapshot, seconds: number) {
  let postgres = 0;
  for (const [pid, s] of after.postgres) postgres += s - (before.postgres.get(pid) ?? 0);
  return {
    server: (after.server - before.server) / seconds,
    postgres: postgres / seconds,
    loadGenerator: (after.loadGenerator - before.loadGenerator) / seconds,
  };
}

/** CONNECTIONS keep-alive clients asking for `path` for `seconds`; every response's latency kept. */
export async function loadTest(
  base: string,
  path: string,
  cookie: string,
  o: { seconds: number; connections?: number },
): Promise<LoadResult> {
  const latencies: number[] = [];
  let ok = 0;
  let failed = 0;
  // Without a callback autocannon answers an instance that is also the promise of its result.
  const instance = autocannon({
    url: `${base}${path}`,
    connections: o.connections ?? CONNECTIONS,
    duration: o.seconds,
    timeout: 10,
    headers: { cookie },
  }) as unknown as autocannon.Instance & Promise<autocannon.Result>;
  // The tracker's event (the typings name the Client's): client, status, bytes, response time in ms.
  (instance as unknown as NodeJS.EventEmitter).on(
    "response",
    (_client: unknown, status: number, _bytes: number, ms: number) => {
      if (status === 200) {
        ok++;
        latencies.push(ms);
      } else failed++;
    },
  );
  const result = await instance;
  failed += result.errors;
  return {
    rps: ok / result.duration,
    ok,
    failed,
    latency: latencies.length ? stats(latencies) : { median: NaN, p95: NaN, min: NaN, max: NaN, n: 0 },
    seconds: result.duration,
  };
}

/** The list's first page and a detail under load, against a running server on the bench data. */
export async function benchThroughput(
  server: ServerChild,
  o: {
    db: "pg" | "pglite";
    permitId: string;
    seconds: number;
    warmupSeconds: number;
    log?: (l: string) => void;
  },
): Promise<Figure[]> {
  const log = o.log ?? console.log;
  const cookie = await signIn(server.base, BENCH.users.admin, BENCH.password);
  const figures: Figure[] = [];
  const targets = [
    { name: "GET /api/permits (first page)", path: "/api/permits", rpsBudget: BUDGETS.listRps },
    { name: "GET /api/permits/:id", path: `/api/permits/${o.permitId}`, rpsBudget: BUDGETS.detailRps },
  ];
  for (const t of targets) {
    await loadTest(server.base, t.path, cookie, { seconds: o.warmupSeconds });
    const before = cpuSnapshot(server.pid);
    const r = await loadTest(server.base, t.path, cookie, { seconds: o.seconds });
    const after = cpuSnapshot(server.pid);
    log(
      `  ${t.name.padEnd(32)} ${r.rps.toFixed(0).padStart(5)} requests/s  latency p50 ${r.latency.median.toFixed(1)} ms ` +
        `p95 ${r.latency.p95.toFixed(1)} ms max ${r.latency.max.toFixed(1)} ms  (${r.ok} ok, ${r.failed} failed, ${r.seconds} s, ${CONNECTIONS} connections)`,
    );
    // Where the cores went over the run.
    const cores = before && after ? coresBetween(before, after, r.seconds) : null;
    if (cores)
      log(
        `    CPU in cores: server ${cores.server.toFixed(2)}, PostgreSQL ${cores.postgres.toFixed(2)}, ` +
          `load generator ${cores.loadGenerator.toFixed(2)} (of ${os.cpus().length})`,
      );
    const note = r.failed ? `${r.failed} responses were not 200 (or failed)` : undefined;
    figures.push(
      figure({
        section: "throughput",
        db: o.db,
        name: `${t.name}: ${CONNECTIONS} clients, requests/s`,
        unit: "req/s",
        median: r.rps,
        budget: t.rpsBudget,
        budgetKind: "min",
        n: r.ok,
        note,
        ...(r.failed ? { verdict: "over" as const } : {}),
      }),
      figure({
        section: "throughput",
        db: o.db,
        name: `${t.name}: ${CONNECTIONS} clients, latency`,
        unit: "ms",
        median: r.latency.median,
        p95: r.latency.p95,
        budget: BUDGETS.p95Ms,
        judged: "p95",
        n: r.latency.n,
      }),
      ...(cores
        ? [
            figure({
              section: "throughput",
              db: o.db,
              name: `${t.name}: ${CONNECTIONS} clients, CPU of the server, PostgreSQL and the load generator`,
              unit: "cores",
              median: cores.server + cores.postgres + cores.loadGenerator,
              note: `server ${cores.server.toFixed(2)}, PostgreSQL ${cores.postgres.toFixed(2)}, load generator ${cores.loadGenerator.toFixed(2)}`,
            }),
          ]
        : []),
    );
  }
  figures.push(
    figure({
      section: "throughput",
      db: o.db,
      name: "server RSS after the load",
      unit: "MB",
      median: server.rssMb(),
    }),
  );
  return figures;
}

if (isMain(import.meta.url)) {
  const quick = hasFlag("quick");
  const figures: Figure[] = [];
  const webDir = await builtWebDir();
  for (const kind of dbKinds()) {
    console.log(`\n${dbLabel(kind)}`);
    const bench = await createBenchDatabase(kind, "bench_load");
    try {
      await generatePermitsData(bench.database, console.log, quick ? QUICK_SCALE : undefined);
      const { permitId } = await benchTargets(bench.database);
      await bench.suspend();
      const server = await ServerChild.start({ bench, webDir });
      try {
        figures.push(
          ...(await benchThroughput(server, {
            db: kind,
            permitId,
            seconds: quick ? 3 : 10,
            warmupSeconds: quick ? 1 : 2,
          })),
        );
      } finally {
        await server.stop();
      }
    } finally {
      await bench.dispose();
    }
  }
  if (hasFlag("json")) printFigures(figures);
}
