/**
 * Reminder sweep benchmark (issue 5, "Performance"; re-run for issue 11). On a fresh PostgreSQL
 * database of 1,000,000 permits in 1,000 companies (8 time zones, mixed switches, 2 recipients
 * each), generated set-based with generate_series, with about 2% of the permits due today, and the
 * permit lifecycle in play (every permit has its original term; one in five has a responsible
 * person, one in four a 30-day renewal lead time, one in fifty is acknowledged, one in twenty
 * closed; escalation at 7 days and the overdue digest on everywhere, so every expired open permit
 * is listed to its company admin each day), it measures:
 *   - the sweep: finding and recording everything due (budget 10 s), then a second sweep that
 *     finds everything already recorded (the hourly steady state);
 *   - the sender working through the recorded reminders with a mailer that accepts instantly
 *     (claims, re-checks, digest loading, marking sent: the database side of sending);
 *   - this process's peak RSS (budget 300 MB).
 *
 * Run: npx tsx scripts/bench/reminders-sweep.ts
 * BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres) names the server; the
 * benchmark creates its own database there and drops it at the end. BENCH_COMPANIES and
 * BENCH_PERMITS shrink the data set for a quick try.
 */
import pg from "pg";
import { openDatabase } from "../../server/db/client.ts";
import { migrateDatabase } from "../../server/db/migrate.ts";
import type { Mailer } from "../../server/mail/mailer.ts";
import { sendDueReminders, sweepDueReminders } from "../../server/features/reminders/index.ts";

const PG_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const COMPANIES = Number(process.env.BENCH_COMPANIES ?? 1000);
const PERMITS = Number(process.env.BENCH_PERMITS ?? 1_000_000);
const BUDGET_SWEEP_MS = 10_000;
const BUDGET_RSS_MB = 300;
const TODAY = "2030-06-03";
// Noon UTC: every zone below is past the reminder hour (0) on TODAY, none on the next day.
const NOW = new Date(`${TODAY}T12:00:00Z`);
const ZONES = [
  "UTC",
  "America/New_York",
  "America/Denver",
  "America/Los_Angeles",
  "Europe/Berlin",
  "Europe/London",
  "Asia/Kolkata",
  "Australia/Perth",
];

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 10);
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
const time = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const start = performance.now();
  const result = await fn();
  return [result, Math.round(performance.now() - start)];
};

async function main() {
  const name = `permitrack_bench_reminders_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  try {
    await migrateDatabase(database);
    const [, genMs] = await time(() => generate(database.exec));
    const stats = await database.pool!.query<{ due: number; in_window: number; overdue: number; terms: number }>(`
      select count(*) filter (where countdown_date between date '${TODAY}' and date '${TODAY}' + 30
                               and not archived and status <> 'N/A' and close_date is null)::int as in_window,
             count(*) filter (where expiration_date < date '${TODAY}' and not archived and status <> 'N/A'
                               and close_date is null)::int as overdue,
             (select count(*) from permit_terms)::int as terms,
             count(*)::int as due
      from permits`);
    console.log(
      `Generated ${PERMITS.toLocaleString()} permits in ${COMPANIES} companies in ${(genMs / 1000).toFixed(1)} s;`,
    );
    console.log(
      `  ${stats.rows[0]!.in_window.toLocaleString()} (${((100 * stats.rows[0]!.in_window) / PERMITS).toFixed(1)}%) count down (expiry or renew-by) within 30 days, open;`,
    );
    console.log(
      `  ${stats.rows[0]!.overdue.toLocaleString()} expired and still open (the overdue digest); ${stats.rows[0]!.terms.toLocaleString()} terms.`,
    );
    const kinds = async () =>
      (
        await database.pool!.query<{ kind: string; n: number }>(
          "select kind, count(*)::int as n from reminder_deliveries group by kind order by kind",
        )
      ).rows.map((r) => `${r.kind} ${r.n.toLocaleString()}`);

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
        ackSecret: "bench-secret",
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
  } finally {
    clearInterval(sampler);
    await database.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

/** The data set, written by the database itself (generate_series), so generating costs no Node memory. */
async function generate(exec: (sql: string) => Promise<void>) {
  const zones = `array[${ZONES.map((z) => `'${z}'`).join(",")}]`;
  await exec(`
    insert into companies (id, name, slug, time_zone)
    select ('00000000-0000-4000-8000-' || lpad(to_hex(c), 12, '0'))::uuid, 'Company ' || c, 'company-' || c,
           (${zones})[1 + c % ${ZONES.length}]
    from generate_series(1, ${COMPANIES}) c;

    -- one company in ten has the 30-day reminder off, one in twenty the 7-day one
    insert into company_preferences (company_id, email_30_day, email_7_day, email_1_day)
    select id, (row_number() over ()) % 10 <> 0, (row_number() over ()) % 20 <> 0, true from companies;

    insert into users (name, email, role, company_id, first_name, last_name)
    select 'User ' || c.slug || '-' || r, r || '@' || c.slug || '.example',
           (array['company-admin', 'company-user', 'client-user'])[r], c.id, 'User', c.slug || '-' || r
    from companies c cross join generate_series(1, 3) r;

    insert into user_notifications (user_id, company_id)
    select id, company_id from users where role in ('company-admin', 'company-user');

    -- expiration dates spread evenly over 1,300 days around today (31 of them are the reminder
    -- window, about 2.4%), one in ten without a date, 3% archived, 3% N/A; seeded, so every run
    -- generates the same data
    select setseed(0.42);
    insert into permits (company_id, permit_number, permit_name, agency, status, archived, record_type, expiration_date)
    select ('00000000-0000-4000-8000-' || lpad(to_hex(1 + i % ${COMPANIES}), 12, '0'))::uuid,
           'PN-' || i, 'Permit ' || i, 'Agency ' || (i % 37),
           case when i % 33 = 0 then 'N/A' else 'Required' end,
           i % 31 = 0,
           case when i % 7 = 0 then 'bond' else 'permit' end,
           case when i % 10 = 0 then null else date '${TODAY}' - 300 + floor(random() * 1300)::int end
    from generate_series(1, ${PERMITS}) i;

    -- the permit lifecycle (issue 11)
    update permits p set
      responsible_user_id = case when substr(p.permit_number, 4)::int % 5 = 0 then u.id end,
      renewal_lead_days = case when substr(p.permit_number, 4)::int % 4 = 0 then 30 end,
      acknowledged_at = case when substr(p.permit_number, 4)::int % 50 = 0 then now() end,
      acknowledged_by_name = case when substr(p.permit_number, 4)::int % 50 = 0 then 'Bench User' end,
      close_date = case when substr(p.permit_number, 4)::int % 20 = 0 then date '${TODAY}' - 10 end
    from users u
    where u.company_id = p.company_id and u.role = 'company-user';

    analyze;
  `);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
