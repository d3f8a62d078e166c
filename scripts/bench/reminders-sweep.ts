/**
 * Reminder sweep benchmark (issue 5, "Performance"; re-run for issue 11). On a fresh PostgreSQL
 * database of 1,000,000 permits in 1,000 companies (8 time zones, mixed switches, 2 recipients
 * each), generated set-based with generate_series, with about 2% of the permits due today, and the
 * permit lifecycle in play (every permit has its original term; one in five has a responsible
 * person, one in four a 30-day renewal lead time, one in fifty is acknowledged, one in twenty
 * closed; escalation at 7 days and the overdue digest on everywhere, so every expired open permit
 * is listed to its company admin each day), and (issue 29) 500,000 conditions of approval (on every
 * other permit) each with its open task (2% overdue, 3% due within 7 days, the rest later; 1 in 10
 * timed), it measures:
 *   - the sweep: finding and recording everything due, the tasks' deliveries too (budget 10 s), then a second sweep that
 *     finds everything already recorded (the hourly steady state);
 *   - the sender working through the recorded reminders with a mailer that accepts instantly
 *     (claims, re-checks, digest loading, marking sent: the database side of sending);
 *   - this process's peak RSS (budget 300 MB).
 * On PGlite (--db=pglite) the default is 100,000 permits in 100 companies (the embedded database
 * generates a million too slowly for `npm run bench`); `npm run bench` reports them as information.
 *
 * Run: npx tsx scripts/bench/reminders-sweep.ts [--db=pg|pglite] [--permits=N --companies=N] [--json]
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) names the server; the
 * benchmark creates its own database there and drops it at the end. BENCH_COMPANIES and
 * BENCH_PERMITS (or --companies, --permits) shrink the data set for a quick try; --conditions=N
 * (default half the permits) sets the conditions; --explain prints the plans of the tasks' selects
 * (EXPLAIN ANALYZE, before the timed sweep).
 */
import { sql } from "drizzle-orm";
import { queryRows } from "../../server/db/client.ts";
import type { Mailer } from "../../server/mail/mailer.ts";
import { createLinkSigner } from "../../server/auth/link-signer.ts";
import { sendDueReminders, sweepDueReminders } from "../../server/features/reminders/index.ts";
import { createBenchDatabase } from "./bench-database.ts";
import { generateReminderData } from "./reminders-data.ts";
import { taskDeliveriesSelect } from "../../server/features/reminders/reminders.task-sweep.ts";
import { arg, dbKinds, figure, hasFlag, printFigures, type Figure } from "./lib.ts";

const KIND = dbKinds(["pg"])[0]!;
const ON_PG = KIND === "pg";
const COMPANIES = Number(arg("companies") ?? process.env.BENCH_COMPANIES ?? (ON_PG ? 1000 : 100));
const PERMITS = Number(arg("permits") ?? process.env.BENCH_PERMITS ?? (ON_PG ? 1_000_000 : 100_000));
const CONDITIONS = Number(arg("conditions") ?? Math.floor(PERMITS / 2));
const BUDGET_SWEEP_MS = 10_000;
const BUDGET_RSS_MB = 300;
const TODAY = "2030-06-03";
// Noon UTC: every zone below is past the reminder hour (0) on TODAY, none on the next day.
const NOW = new Date(`${TODAY}T12:00:00Z`);

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 10);
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
const time = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const start = performance.now();
  const result = await fn();
  return [result, Math.round(performance.now() - start)];
};

async function main() {
  const bench = await createBenchDatabase(KIND, "bench_reminders");
  const database = bench.database;
  const rows = <T>(text: string) => queryRows<T>(database.db, sql.raw(text));
  try {
    const [, genMs] = await time(() =>
      generateReminderData(database.exec, {
        companies: COMPANIES,
        permits: PERMITS,
        today: TODAY,
        conditions: CONDITIONS,
      }),
    );
    const [stat] = await rows<{ due: number; in_window: number; overdue: number; terms: number }>(`
      select count(*) filter (where countdown_date between date '${TODAY}' and date '${TODAY}' + 30
                               and not archived and status <> 'N/A' and close_date is null)::int as in_window,
             count(*) filter (where expiration_date < date '${TODAY}' and not archived and status <> 'N/A'
                               and close_date is null)::int as overdue,
             (select count(*) from permit_terms)::int as terms,
             count(*)::int as due
      from permits`);
    console.log(
      `Generated ${PERMITS.toLocaleString()} permits in ${COMPANIES} companies on ${bench.kind} in ${(genMs / 1000).toFixed(1)} s;`,
    );
    console.log(
      `  ${stat!.in_window.toLocaleString()} (${((100 * stat!.in_window) / PERMITS).toFixed(1)}%) count down (expiry or renew-by) within 30 days, open;`,
    );
    console.log(
      `  ${stat!.overdue.toLocaleString()} expired and still open (the overdue digest); ${stat!.terms.toLocaleString()} terms.`,
    );
    const [tasks] = await rows<{ conditions: number; open: number; overdue: number; week: number }>(`
      select (select count(*) from permit_conditions)::int as conditions, count(*)::int as open,
             count(*) filter (where due_at < '${NOW.toISOString()}'::timestamptz)::int as overdue,
             count(*) filter (where due_at >= '${NOW.toISOString()}'::timestamptz
                               and due_on <= date '${TODAY}' + 7)::int as week
      from condition_tasks where status = 'open'`);
    console.log(
      `  ${tasks!.conditions.toLocaleString()} conditions, ${tasks!.open.toLocaleString()} open tasks: ${tasks!.overdue.toLocaleString()} overdue, ${tasks!.week.toLocaleString()} due within 7 days.`,
    );
    const kinds = async () =>
      (
        await rows<{ kind: string; n: number }>(
          "select kind, count(*)::int as n from reminder_deliveries group by kind order by kind",
        )
      ).map((r) => `${r.kind} ${r.n.toLocaleString()}`);

    if (hasFlag("explain")) {
      const sweepOpts = { now: NOW, asOf: undefined, reminderHour: 0 };
      for (const select of [taskDeliveriesSelect]) {
        const plan = await queryRows<{ "QUERY PLAN": string }>(
          database.db,
          sql`explain (analyze, buffers) ${select(sweepOpts)}`,
        );
        console.log(`\n${select.name}:\n${plan.map((r) => r["QUERY PLAN"]).join("\n")}`);
      }
    }
    const rssBefore = process.memoryUsage().rss;
    peakRss = rssBefore;
    const opts = { now: NOW, asOf: undefined, reminderHour: 0 };
    const [recorded, sweepMs] = await time(() => sweepDueReminders(database.db, opts));
    const sweepPeak = peakRss;
    const [again, steadyMs] = await time(() => sweepDueReminders(database.db, opts));
    const recordedKinds = await kinds();

    let emails = 0;
    const instantMailer: Mailer = {
      send: async () => `<bench-${++emails}@bench>`,
      describe: () => "bench",
      close: () => undefined,
    };
    const [sent, sendMs] = await time(() =>
      sendDueReminders(database.db, instantMailer, {
        clock: () => NOW,
        publicUrl: "https://permits.example.com",
        links: createLinkSigner("bench-secret-0123456789abcdef0123456789"),
      }),
    );

    console.log("");
    console.log(
      `Sweep (find + record everything due):  ${sweepMs} ms for ${recorded.toLocaleString()} deliveries   budget ${BUDGET_SWEEP_MS} ms  ${sweepMs <= BUDGET_SWEEP_MS ? "OK" : "OVER"}`,
    );
    console.log(`  by kind: ${recordedKinds.join(", ")}`);
    console.log(`Second sweep (all already recorded):   ${steadyMs} ms, ${again} new`);
    console.log(
      `Send (claim, re-check, compose, mark): ${sendMs} ms for ${sent.emailsSent.toLocaleString()} digests covering ${sent.deliveriesSent.toLocaleString()} deliveries (mailer accepting instantly)`,
    );
    console.log(
      `Peak RSS during the sweep: ${mb(sweepPeak)} MB (before: ${mb(rssBefore)} MB); whole run: ${mb(peakRss)} MB   budget ${BUDGET_RSS_MB} MB  ${mb(sweepPeak) <= BUDGET_RSS_MB ? "OK" : "OVER"}`,
    );
    console.log(
      `(process maxRSS as reported by the OS: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB)`,
    );
    if (hasFlag("json")) {
      const conditions = CONDITIONS >= 1000 ? `, ${CONDITIONS / 1000}k conditions` : "";
      const size = `${PERMITS >= 1_000_000 ? `${PERMITS / 1_000_000}M` : `${PERMITS / 1000}k`} permits${conditions}`;
      const common = { section: "reminders", db: bench.kind } as const;
      const figures: Figure[] = [
        figure({ ...common, name: `generate ${size} (info)`, unit: "s", median: genMs / 1000 }),
        figure({
          ...common,
          name: `sweep, ${size} (${recorded.toLocaleString()} deliveries)`,
          unit: "s",
          median: sweepMs / 1000,
          budget: BUDGET_SWEEP_MS / 1000,
        }),
        figure({
          ...common,
          name: `second sweep, ${size} (all recorded)`,
          unit: "s",
          median: steadyMs / 1000,
        }),
        figure({
          ...common,
          name: `send ${sent.emailsSent.toLocaleString()} digests (instant mailer)`,
          unit: "s",
          median: sendMs / 1000,
        }),
        figure({
          ...common,
          name: `peak RSS during the sweep, ${size}`,
          unit: "MB",
          median: mb(sweepPeak),
          budget: BUDGET_RSS_MB,
        }),
      ];
      printFigures(figures);
    }
  } finally {
    clearInterval(sampler);
    await bench.dispose();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
