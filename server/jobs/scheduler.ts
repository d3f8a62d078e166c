import path from "node:path";
import { Cron } from "croner";
import type { FastifyInstance } from "fastify";
import { backupSource, runNightlyBackup } from "../features/backups/index.ts";
import { runMonthlyPackets } from "../features/packets/index.ts";
import { runReminders } from "../features/reminders/index.ts";
import { sendDueRequestDeliveries } from "../features/requests/index.ts";
import { recordTimeEvents } from "../features/webhooks/index.ts";

export interface Scheduler {
  /** Stops the timers and waits for a run in progress, so shutdown never cuts a send short. */
  stop(): Promise<void>;
}

/**
 * In-process jobs (DESIGN.md section 5), safe on any number of instances because the database
 * decides what is due and who runs it:
 * - every hour on the hour, the reminder sweep and send. Each company's reminder day starts at
 *   REMINDER_HOUR in its own time zone, so hourly runs deliver at that local hour everywhere;
 * - every five minutes, a send-only run for retries (backoff from 5 minutes);
 * - one run at start-up, catching up whatever was missed while the server was down;
 * - with the hourly run, webhooks' time-driven events (expiring, expired, task overdue);
 * - with BACKUP_DIR set, the nightly backup at half past BACKUP_HOUR (UTC), claimed once for the
 *   night across every node (job_runs), and at start-up when that time has passed and no node has
 *   taken the night's backup (issue 26).
 * Every run is counted for GET /metrics. SCHEDULER=off (tests, e2e) starts nothing. `clock` (tests)
 * fixes the time the start-up decides by and the backups are named after.
 */
export function startScheduler(app: FastifyInstance, opts: { clock?: () => Date } = {}): Scheduler {
  const clock = opts.clock ?? (() => new Date());
  const { config, db, mailer, metrics } = app.ctx;
  if (config.SCHEDULER === "off") return { stop: async () => undefined };

  const timed = async <T>(
    job: string,
    fn: () => Promise<T>,
    outcome: (result: T) => "succeeded" | "failed" | "skipped",
  ) => {
    const started = performance.now();
    try {
      const result = await fn();
      metrics.jobRun(job, outcome(result), (performance.now() - started) / 1000);
      return result;
    } catch (err) {
      metrics.jobRun(job, "failed", (performance.now() - started) / 1000);
      throw err;
    }
  };

  let running: Promise<void> = Promise.resolve();
  const run = (sendOnly: boolean) => {
    running = running.then(async () => {
      try {
        const report = await timed(
          sendOnly ? "reminders-retry" : "reminders",
          () =>
            runReminders({
              db,
              mailer,
              publicUrl: config.publicUrl,
              links: app.ctx.links,
              reminderHour: config.REMINDER_HOUR,
              sendOnly,
            }),
          () => "succeeded",
        );
        metrics.reminders(report);
        const { wouldSend: _none, dryRun: _dry, ...counts } = report;
        if (report.recorded || report.emailsSent || report.deliveriesRetrying || report.deliveriesFailed) {
          app.log.info(counts, "reminders run");
        }
      } catch (err) {
        app.log.error({ err }, "reminders run failed; the next run picks it up");
      }
      // Document requests' e-mails to outside parties (issue 27): whatever an SMTP outage left pending.
      try {
        const sent = await timed(
          "request-emails",
          () => sendDueRequestDeliveries(db, mailer, { publicUrl: config.publicUrl, links: app.ctx.links }),
          () => "succeeded",
        );
        if (sent.sent || sent.retrying || sent.failed) app.log.info(sent, "request e-mails run");
      } catch (err) {
        app.log.error({ err }, "request e-mails run failed; the next run picks it up");
      }
      // Webhooks' time-driven events (issue 30): permits expiring and expired, tasks overdue, once each; the
      // webhook dispatcher (server/features/webhooks/worker.ts) delivers them.
      if (!sendOnly) {
        try {
          const made = await timed(
            "webhook-events",
            () => recordTimeEvents(db, new Date()),
            () => "succeeded",
          );
          if (made) app.log.info({ deliveries: made }, "webhook time events recorded");
        } catch (err) {
          app.log.error({ err }, "webhook time events run failed; the next run picks it up");
        }
      }
      // The monthly compliance packet (issue 30): the hourly run records the month's, every run sends what is due.
      try {
        const sent = await timed(
          "packet-emails",
          () => runMonthlyPackets({ db, mailer, storage: app.ctx.storage, log: app.log, sendOnly }),
          () => "succeeded",
        );
        if (sent.recorded || sent.sent || sent.retrying || sent.failed)
          app.log.info(sent, "packet e-mails run");
      } catch (err) {
        app.log.error({ err }, "packet e-mails run failed; the next run picks it up");
      }
    });
    return running;
  };

  // A backup runs beside the reminders (its own promise): an hour-long copy of files must not hold them up.
  let backingUp: Promise<void> = Promise.resolve();
  const backup = () => {
    backingUp = backingUp.then(async () => {
      try {
        await timed(
          "backup",
          () =>
            runNightlyBackup(
              {
                db,
                source: backupSource(app.ctx),
                mailer,
                publicUrl: config.publicUrl,
                dir: path.resolve(config.BACKUP_DIR!),
                keepDaily: config.BACKUP_KEEP_DAILY,
                keepWeekly: config.BACKUP_KEEP_WEEKLY,
                log: app.log,
              },
              clock(),
            ),
          (r) => r.outcome,
        );
      } catch (err) {
        app.log.error({ err }, "nightly backup could not be claimed; the next night tries again");
      }
    });
    return backingUp;
  };

  // protect: a tick that finds the previous one still busy is skipped rather than stacked. (No job
  // names: croner keeps them in one registry per process, and tests run two schedulers side by side.)
  const jobs = [
    new Cron("0 * * * *", { protect: true }, () => run(false)),
    new Cron("*/5 * * * *", { protect: true }, () => run(true)),
  ];
  void run(false);
  if (config.BACKUP_DIR) {
    jobs.push(new Cron(`30 ${config.BACKUP_HOUR} * * *`, { protect: true, timezone: "UTC" }, () => backup()));
    // Catching up: the claim makes it a no-op when a node took tonight's already.
    const now = clock();
    if (now.getUTCHours() * 60 + now.getUTCMinutes() >= config.BACKUP_HOUR * 60 + 30) void backup();
  }
  return {
    async stop() {
      for (const job of jobs) job.stop();
      await Promise.all([running, backingUp]);
    },
  };
}
