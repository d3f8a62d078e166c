import fs from "node:fs";
import path from "node:path";

/** One verified statement of the suite: it held, or it did not (with what was seen). */
export interface Check {
  section: string;
  name: string;
  ok: boolean;
  detail: string;
}

/** A fault the suite injected on purpose, and what it found afterwards. */
export interface Fault {
  kind: string;
  when: string;
  outcome: string;
}

/** What the closing note's table needs: filled in by the sections as they run. */
export interface Figures {
  load?: LoadFigures;
  signInStorm?: StormFigures;
  e2e?: { passedOn: Record<string, string[]>; exitCodes: Record<string, number> };
  reminders?: Record<string, unknown>;
  outage?: Record<string, unknown>;
  webhooks?: Record<string, unknown>;
  lost: {
    writes: number;
    reminders: number;
    /** Distinct digests (by Message-ID) a recipient got more than once for one day. */
    duplicateReminders: number;
    /** Identical copies (same Message-ID) re-sent in the SMTP at-least-once window, by design. */
    identicalResends: number;
    halfWritten: number;
    /** Webhook deliveries recorded before a kill that the receiver never got (webhooks.ts). */
    webhooks: number;
  };
}

export interface LatencyFigures {
  requests: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface LoadFigures extends LatencyFigures {
  connections: number;
  seconds: number;
  requestsPerSecond: number;
  errors: number;
  non2xx: number;
  timeouts: number;
  byRoute: Record<string, LatencyFigures & { errors: number }>;
  /** The machine's 1-minute load average when the run started and ended. */
  loadAverage: number[];
}

export interface StormFigures {
  signIns: number;
  signInsOk: number;
  signInSeconds: number;
  listBaseline: LatencyFigures;
  listDuringStorm: LatencyFigures & { errors: number };
  boundMs: number;
}

/** Collects checks, faults and figures; prints the summary and writes test-results/resilience.json. */
export class Report {
  readonly checks: Check[] = [];
  readonly faults: Fault[] = [];
  readonly figures: Figures = {
    lost: {
      writes: 0,
      reminders: 0,
      duplicateReminders: 0,
      identicalResends: 0,
      halfWritten: 0,
      webhooks: 0,
    },
  };
  private section = "setup";
  private readonly started = Date.now();

  begin(section: string) {
    this.section = section;
    console.log(`\n=== ${section}`);
  }

  check(name: string, ok: boolean, detail = ""): boolean {
    this.checks.push({ section: this.section, name, ok, detail });
    console.log(`  ${ok ? "ok  " : "FAIL"} ${name}${detail ? ` — ${detail}` : ""}`);
    return ok;
  }

  /** A section that threw: one failed check that says where and why, so the run goes on. */
  crashed(err: unknown) {
    const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
    this.check(`${this.section} ran to the end`, false, message.split("\n").slice(0, 6).join(" | "));
  }

  fault(kind: string, when: string, outcome: string) {
    this.faults.push({ kind, when, outcome });
  }

  note(line: string) {
    console.log(`       ${line}`);
  }

  get failed() {
    return this.checks.filter((c) => !c.ok).length;
  }

  /** The closing summary: the table the issue's closing note needs, then the line CI reads. */
  finish(outFile: string): number {
    const seconds = Math.round((Date.now() - this.started) / 1000);
    const passed = this.checks.length - this.failed;
    const { load, signInStorm, lost, webhooks } = this.figures;
    const rows: [string, string][] = [
      ["faults injected", `${this.faults.length}: ${this.faults.map((f) => f.kind).join("; ") || "none"}`],
      [
        "requests under load",
        load
          ? `${load.requests} in ${load.seconds} s over ${load.connections} signed-in connections (${load.requestsPerSecond} req/s)`
          : "not run",
      ],
      [
        "latency under load",
        load ? `p50 ${load.p50} ms, p95 ${load.p95} ms, p99 ${load.p99} ms, max ${load.max} ms` : "not run",
      ],
      [
        "errors under load",
        load ? `${load.errors} (non-2xx ${load.non2xx}, timeouts/socket errors ${load.timeouts})` : "not run",
      ],
      [
        "sign-in storm",
        signInStorm
          ? `${signInStorm.signInsOk}/${signInStorm.signIns} sign-ins in ${signInStorm.signInSeconds} s; list p95 ${signInStorm.listBaseline.p95} ms before, ${signInStorm.listDuringStorm.p95} ms during (bound ${signInStorm.boundMs} ms), ${signInStorm.listDuringStorm.errors} errors`
          : "not run",
      ],
      ["lost writes", String(lost.writes)],
      ["half-written data", String(lost.halfWritten)],
      ["lost reminders", String(lost.reminders)],
      ["duplicated reminders", String(lost.duplicateReminders)],
      [
        "identical re-sends (at-least-once window)",
        `${lost.identicalResends} (same Message-ID as the first copy; provoked on purpose, see README)`,
      ],
      [
        "lost webhook deliveries",
        webhooks
          ? `${lost.webhooks} of ${String(webhooks.deliveries)} recorded before a kill (${String(webhooks.identicalResends)} identical re-sends)`
          : "not run",
      ],
      ["checks", `${passed} passed, ${this.failed} failed, ${seconds} s`],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    console.log("\n=== Resilience summary");
    for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
    if (this.faults.length) {
      console.log("\n  faults:");
      for (const f of this.faults) console.log(`  - ${f.kind} (${f.when}): ${f.outcome}`);
    }
    const failures = this.checks.filter((c) => !c.ok);
    if (failures.length) {
      console.log("\n  failed checks:");
      for (const c of failures) console.log(`  - [${c.section}] ${c.name}: ${c.detail}`);
    }
    fs.mkdirSync(path.dirname(outFile), { recursive: true });
    fs.writeFileSync(
      outFile,
      `${JSON.stringify(
        {
          passed,
          failed: this.failed,
          seconds,
          faults: this.faults,
          figures: this.figures,
          checks: this.checks,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`\n  (written to ${path.relative(process.cwd(), outFile)})`);
    console.log(`resilience: ${passed} passed, ${this.failed} failed`);
    return this.failed ? 1 : 0;
  }
}

/** Percentiles of a list of milliseconds (nearest rank), rounded to 0.1 ms. */
export function latencies(ms: number[]): LatencyFigures {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : 0;
  const r = (x: number) => Math.round(x * 10) / 10;
  return {
    requests: sorted.length,
    p50: r(at(50)),
    p95: r(at(95)),
    p99: r(at(99)),
    max: r(sorted[sorted.length - 1] ?? 0),
  };
}
