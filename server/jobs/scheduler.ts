import { Cron } from "croner";
import type { FastifyInstance } from "fastify";
import { runReminders } from "../features/reminders/index.ts";

export interface Scheduler {
  /** Stops the timers and waits for a run in progress, so shutdown never cuts a send short. */
  stop(): Promise<void>;
}

/**
 * In-process jobs (DESIGN.md section 5), safe on any number of instances because the database
 * decides what is due and who sends it:
 * - every hour on the hour, the reminder sweep and send. Each company's reminder day starts at
 *   REMINDER_HOUR in its own time zone, so hourly runs deliver at that local hour everywhere;
 * - every five minutes, a send-only run for retries (backoff from 5 minutes);
 * - one run at start-up, catching up whatever was missed while the server was down.
 * SCHEDULER=off (tests, e2e) starts nothing.
 */
export function startScheduler(app: FastifyInstance): Scheduler {
  const { config, db, mailer } = app.ctx;
  if (config.SCHEDULER === "off") return { stop: async () => undefined };

  let running: Promise<void> = Promise.resolve();
  const run = (sendOnly: boolean) => {
    running = running.then(async () => {
      try {
        const report = await runReminders({
          db,
          mailer,
          publicUrl: config.publicUrl,
          links: app.ctx.links,
          reminderHour: config.REMINDER_HOUR,
          sendOnly,
        });
        const { wouldSend: _none, dryRun: _dry, ...counts } = report;
        if (report.recorded || report.emailsSent || report.deliveriesRetrying || report.deliveriesFailed) {
          app.log.info(counts, "reminders run");
        }
      } catch (err) {
        app.log.error({ err }, "reminders run failed; the next run picks it up");
      }
    });
    return running;
  };

  // protect: a tick that finds the previous one still busy is skipped rather than stacked.
  const jobs = [
    new Cron("0 * * * *", { protect: true, name: "reminders-sweep" }, () => run(false)),
    new Cron("*/5 * * * *", { protect: true, name: "reminders-retry" }, () => run(true)),
  ];
  void run(false);
  return {
    async stop() {
      for (const job of jobs) job.stop();
      await running;
    },
  };
}
