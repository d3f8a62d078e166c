/**
 * The serving process's memory on the embedded database (issue 26, part 6): the server bundle `npm
 * start` runs (build/server/main.mjs, production mode, with the V8 flags npm start gives it:
 * scripts/lib/node-flags.mjs, decision 0025), on a PGlite data directory holding the reminder
 * benchmark's data (100,000 permits in 100 companies; reminders-data.ts, due around today), its RSS
 * read from /proc/<pid>/status every 20 ms:
 *   - at ready, and the peak over the 20 s after it (Node 24's optimising tier recompiles PGlite's
 *     WebAssembly a few seconds after start), and the RSS it settles at;
 *   - the peak through one reminders run (sweep, then the digests written to the outbox), asked of the
 *     running server as `npm run reminders` asks it (the internal route, the control token from the
 *     lock file), and the run's time;
 *   - a backup by hand through the server (`npm run backup`'s route): its time, size and peak RSS;
 *   - the kernel's high-water mark of the whole life (VmHWM), which catches what sampling misses;
 *   - what the flags cost in query speed: five dry runs after it (the preview's statements over the
 *     100,000 permits, nothing written), their median; with the server's CPU time (from /proc) for
 *     the run and the dry runs, which another load on the machine changes far less than the time.
 * Budget: 300 MB for each memory figure. It runs on this process's Node unless --node=PATH
 * (scripts/lib/node24.mjs prints Node 24's); PERMITRACK_NODE_FLAGS replaces npm start's flags (empty:
 * none) and --node-args="…" adds more, to measure a flag by itself.
 *
 * Run: npx tsx scripts/bench/server-memory.ts [--node=PATH] [--permits=N --companies=N] [--json]
 *      [--label=TEXT] [--node-args="--flag …"] [--keep-data=DIR]
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { CONTROL_TOKEN_HEADER, CSRF_HEADER, CSRF_HEADER_VALUE } from "../../shared/domain/constants.ts";
import { createBenchDatabase } from "./bench-database.ts";
import { arg, figure, hasFlag, isMain, printFigures, type Figure } from "./lib.ts";
import { builtWebDir } from "./processes.ts";
import { generateReminderData } from "./reminders-data.ts";
import { ServerChild } from "./server-child.ts";

const BUDGET_MB = 300;
const SETTLE_MS = 20_000;

export interface MemoryOptions {
  node?: string;
  nodeArgs?: string[];
  permits: number;
  companies: number;
  /** Names the figures (e.g. "Node 24"). */
  label?: string;
  /**
   * A folder that keeps the generated data for later runs (trying flags): copied from when it holds
   * a database of the same day, written to after generating when not.
   */
  keepData?: string;
  log?: (line: string) => void;
}

const nodeVersion = (node: string) =>
  execFileSync(node, ["--version"], { encoding: "utf8" }).trim().replace(/^v/, "");

/** Samples a process's RSS until stopped; the peak of each named stretch. */
class RssSampler {
  private peak = 0;
  private timer: NodeJS.Timeout;
  constructor(private readonly server: ServerChild) {
    this.timer = setInterval(() => this.sample(), 20);
  }
  sample(): number {
    try {
      const now = this.server.rssMb();
      this.peak = Math.max(this.peak, now);
      return now;
    } catch {
      return NaN; // exited
    }
  }
  /** The peak since the last call, and starts a new stretch. */
  stretch(): number {
    this.sample();
    const peak = this.peak;
    this.peak = 0;
    return peak;
  }
  stop() {
    clearInterval(this.timer);
  }
}

export async function benchServerMemory(o: MemoryOptions): Promise<Figure[]> {
  const log = o.log ?? console.log;
  const node = o.node ?? process.execPath;
  const version = nodeVersion(node);
  const label = o.label ?? `Node ${version.split(".")[0]}`;
  const today = new Date().toISOString().slice(0, 10);
  const bench = await createBenchDatabase("pglite", "server_memory");
  let server: ServerChild | undefined;
  try {
    const kept = o.keepData && path.join(o.keepData, `pglite-${today}-${o.permits}-${o.companies}`);
    const dbDir = path.join(bench.dataDir, "pglite");
    if (kept && fs.existsSync(kept)) {
      await bench.suspend();
      fs.rmSync(dbDir, { recursive: true });
      fs.cpSync(kept, dbDir, { recursive: true });
      log(`Data copied from ${kept}`);
    } else {
      const t = performance.now();
      await generateReminderData(bench.database.exec, { companies: o.companies, permits: o.permits, today });
      log(
        `Generated ${o.permits.toLocaleString()} permits in ${o.companies} companies (due around ${today}) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
      );
      await bench.suspend(); // the server needs the directory to itself
      if (kept) fs.cpSync(dbDir, kept, { recursive: true });
    }
    server = await ServerChild.start({
      bench,
      webDir: await builtWebDir(),
      node,
      nodeArgs: o.nodeArgs,
      env: { REMINDER_HOUR: "0" },
    });
    const sampler = new RssSampler(server);
    const atReady = server.rssMb();
    const peakToReady = server.peakRssMb();
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const afterStartPeak = Math.max(sampler.stretch(), peakToReady);
    const settled = server.rssMb();
    log(
      `${label} (${version}, ${[...server.flags, ...(o.nodeArgs ?? [])].join(" ") || "no flags"}): RSS at ready ${atReady.toFixed(0)} MB, ` +
        `peak over the ${SETTLE_MS / 1000} s after start ${afterStartPeak.toFixed(0)} MB, then ${settled.toFixed(0)} MB`,
    );

    const flags = [...server.flags, ...(o.nodeArgs ?? [])].join(" ") || "no flags";
    const lock = JSON.parse(fs.readFileSync(path.join(bench.dataDir, "permitrack.lock"), "utf8")) as {
      controlToken: string;
    };
    const run = async (body: { date: string; dryRun?: boolean }) => {
      const cpu0 = server!.cpuSeconds();
      const t0 = performance.now();
      const res = await fetch(`${server!.base}/api/internal/reminders/run`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          [CSRF_HEADER]: CSRF_HEADER_VALUE,
          [CONTROL_TOKEN_HEADER]: lock.controlToken,
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10 * 60_000),
      });
      if (!res.ok) throw new Error(`the reminders run answered ${res.status}: ${await res.text()}`);
      const report = (await res.json()) as { recorded: number; emailsSent: number };
      return { ms: performance.now() - t0, cpu: server!.cpuSeconds() - cpu0, report };
    };
    const { ms: runMs, cpu: runCpu, report } = await run({ date: today });
    const sweepPeak = sampler.stretch();
    await new Promise((r) => setTimeout(r, 3000));
    const afterSweep = server.rssMb();
    const dryRuns: { ms: number; cpu: number }[] = [];
    for (let i = 0; i < 5; i++) dryRuns.push(await run({ date: today, dryRun: true }));
    const dryMs = dryRuns.map((r) => r.ms).sort((a, b) => a - b)[2]!;
    const dryCpu = dryRuns.map((r) => r.cpu).sort((a, b) => a - b)[2]!;

    // A backup by hand, as `npm run backup` asks the running server for one (the nightly one is the same).
    sampler.stretch();
    const backupCpu0 = server.cpuSeconds();
    const backup = await fetch(`${server.base}/api/internal/backups/run`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        [CSRF_HEADER]: CSRF_HEADER_VALUE,
        [CONTROL_TOKEN_HEADER]: lock.controlToken,
      },
      body: JSON.stringify({ out: path.join(bench.dataDir, "backups") }),
      signal: AbortSignal.timeout(10 * 60_000),
    });
    if (!backup.ok) throw new Error(`the backup answered ${backup.status}: ${await backup.text()}`);
    const taken = (await backup.json()) as { ms: number; totalBytes: number; rows: number };
    const backupCpu = server.cpuSeconds() - backupCpu0;
    const backupPeak = sampler.stretch();
    const hwm = server.peakRssMb();
    sampler.stop();
    log(
      `  reminders run (sweep + ${report.emailsSent} digests to the outbox): ${(runMs / 1000).toFixed(2)} s (CPU ${runCpu.toFixed(2)} s), ` +
        `${report.recorded.toLocaleString()} recorded; peak RSS ${sweepPeak.toFixed(0)} MB, ` +
        `${afterSweep.toFixed(0)} MB 3 s later; dry run (preview) median ${(dryMs / 1000).toFixed(2)} s (CPU ${dryCpu.toFixed(2)} s); ` +
        `VmHWM ${hwm.toFixed(0)} MB`,
    );
    log(
      `  backup (npm run backup through the server): ${(taken.ms / 1000).toFixed(2)} s (CPU ${backupCpu.toFixed(2)} s), ` +
        `${(taken.totalBytes / 1024 / 1024).toFixed(1)} MB for ${taken.rows.toLocaleString()} rows; peak RSS ${backupPeak.toFixed(0)} MB`,
    );

    const common = { section: "memory", db: "pglite" } as const;
    const size = `${o.permits / 1000}k permits`;
    const note = `Node ${version}, ${flags}`;
    const mb = (name: string, value: number, budget: number | null = BUDGET_MB) =>
      figure({ ...common, name: `${label}: ${name}`, unit: "MB", median: Math.round(value), budget, note });
    return [
      mb("server RSS at ready", atReady),
      mb(`server peak RSS over the ${SETTLE_MS / 1000} s after start`, afterStartPeak),
      mb("server RSS settled after start", settled, null),
      mb(`server peak RSS through a reminders run, ${size}`, sweepPeak),
      mb("server VmHWM (peak of its whole life)", hwm),
      mb(`server peak RSS through a backup, ${size}`, backupPeak, null),
      figure({
        ...common,
        name: `${label}: backup, ${size} (${taken.rows.toLocaleString()} rows, ${(taken.totalBytes / 1024 / 1024).toFixed(1)} MB)`,
        unit: "s",
        median: Math.round(taken.ms) / 1000,
        note,
      }),
      figure({
        ...common,
        name: `${label}: reminders run, ${size} (${report.recorded.toLocaleString()} recorded, ${report.emailsSent} digests)`,
        unit: "s",
        median: Math.round(runMs) / 1000,
        note,
      }),
      figure({
        ...common,
        name: `${label}: reminders run, ${size}: the server's CPU time`,
        unit: "s",
        median: Math.round(runCpu * 100) / 100,
        note,
      }),
      figure({
        ...common,
        name: `${label}: reminders dry run, ${size} (the preview's statements; median of 5)`,
        unit: "s",
        median: Math.round(dryMs) / 1000,
        note,
      }),
      figure({
        ...common,
        name: `${label}: reminders dry run, ${size}: the server's CPU time (median of 5)`,
        unit: "s",
        median: Math.round(dryCpu * 100) / 100,
        note,
      }),
    ];
  } finally {
    await server?.stop();
    await bench.dispose();
  }
}

if (isMain(import.meta.url)) {
  const nodeArgs = arg("node-args")?.split(/\s+/).filter(Boolean);
  benchServerMemory({
    node: arg("node"),
    nodeArgs,
    label: arg("label"),
    keepData: arg("keep-data"),
    permits: Number(arg("permits") ?? 100_000),
    companies: Number(arg("companies") ?? 100),
  })
    .then((figures) => {
      if (hasFlag("json")) printFigures(figures);
    })
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
