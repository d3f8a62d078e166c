import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Registry } from "prom-client";
import type { Database } from "../db/client.ts";

/**
 * GET /metrics in Prometheus' text format (issue 26; prom-client), off unless METRICS_TOKEN is set,
 * then only to `Authorization: Bearer <METRICS_TOKEN>`. Without the token configured nothing of
 * prom-client is even loaded, and every recording call below costs a no-op. docs/OPERATIONS.md,
 * "Metrics", says what each family means.
 *
 * The platform counts requests and reads the database pool itself; jobs and features record
 * through `app.ctx.metrics` (the scheduler its runs and the reminders, the backups feature the age
 * of the last backup, as a gauge read at each scrape).
 */
export interface Metrics {
  readonly enabled: boolean;
  /** One run of a scheduled job: its outcome and how long it took. */
  jobRun(job: string, outcome: "succeeded" | "failed" | "skipped", seconds: number): void;
  /** What a reminders run sent: deliveries and e-mails, and deliveries failed after their last try. */
  reminders(report: { deliveriesSent: number; emailsSent: number; deliveriesFailed: number }): void;
  /** A gauge whose value is read at each scrape (null: no sample); for features' own figures. */
  gauge(name: string, help: string, read: () => Promise<number | null>): void;
}

/** What the route and the request hook need of enabled metrics. */
interface Endpoint {
  registry: Registry;
  /** A constant-time check of the Authorization header against `Bearer <METRICS_TOKEN>`. */
  authorized(header: string | undefined): boolean;
  observeRequest(request: FastifyRequest, reply: FastifyReply): void;
}

export type AppMetrics = Metrics & { endpoint?: Endpoint };

const NONE: AppMetrics = {
  enabled: false,
  jobRun: () => undefined,
  reminders: () => undefined,
  gauge: () => undefined,
};

const PREFIX = "permitrack_";
const digest = (value: string) => createHash("sha256").update(value).digest();

/** The metrics of an app: a registry when METRICS_TOKEN is set, else nothing at all. */
export async function createMetrics(token: string | undefined, database: Database): Promise<AppMetrics> {
  if (!token) return NONE;
  const client = await import("prom-client");
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: PREFIX });
  const labelNames = ["method", "route", "status"] as const;
  const requests = new client.Counter({
    name: `${PREFIX}http_requests_total`,
    help: "Requests answered, by method, route (its pattern, e.g. /api/permits/:id) and status",
    labelNames,
    registers: [registry],
  });
  const latency = new client.Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: "Time from a request's arrival to its answer, by method, route and status",
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const pool = database.pool;
  new client.Gauge({
    name: `${PREFIX}db_pool_connections`,
    help: "Database connections by state: total (open), idle, waiting (requests queued for one), max (the pool's size)",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      // The embedded database is one in-process connection.
      const total = pool ? pool.totalCount : 1;
      this.set({ state: "total" }, total);
      this.set({ state: "idle" }, pool ? pool.idleCount : 0);
      this.set({ state: "waiting" }, pool ? pool.waitingCount : 0);
      this.set({ state: "max" }, pool ? (pool.options.max ?? total) : 1);
    },
  });
  const jobRuns = new client.Counter({
    name: `${PREFIX}job_runs_total`,
    help: "Runs of the scheduled jobs (reminders, reminders-retry, backup) and documents read (document-reading) by outcome; skipped: another node had the run",
    labelNames: ["job", "outcome"],
    registers: [registry],
  });
  const jobSeconds = new client.Histogram({
    name: `${PREFIX}job_duration_seconds`,
    help: "How long each run of a scheduled job took",
    labelNames: ["job"],
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
    registers: [registry],
  });
  const remindersSent = new client.Counter({
    name: `${PREFIX}reminders_sent_total`,
    help: "Reminder deliveries sent (each is one permit's line in a digest e-mail)",
    registers: [registry],
  });
  const reminderEmails = new client.Counter({
    name: `${PREFIX}reminder_emails_sent_total`,
    help: "Reminder digest e-mails the mail server accepted",
    registers: [registry],
  });
  const remindersFailed = new client.Counter({
    name: `${PREFIX}reminders_failed_total`,
    help: "Reminder deliveries given up after their last try",
    registers: [registry],
  });
  const expected = digest(`Bearer ${token}`);
  return {
    enabled: true,
    jobRun(job, outcome, seconds) {
      jobRuns.inc({ job, outcome });
      if (outcome !== "skipped") jobSeconds.observe({ job }, seconds);
    },
    reminders(report) {
      remindersSent.inc(report.deliveriesSent);
      reminderEmails.inc(report.emailsSent);
      remindersFailed.inc(report.deliveriesFailed);
    },
    gauge(name, help, read) {
      new client.Gauge({
        name: `${PREFIX}${name}`,
        help,
        registers: [registry],
        async collect() {
          const value = await read();
          if (value === null) this.reset();
          else this.set(value);
        },
      });
    },
    endpoint: {
      registry,
      authorized: (header) => typeof header === "string" && timingSafeEqual(digest(header), expected),
      observeRequest(request, reply) {
        // The route's pattern, never the path (ids would make a series each); unmatched: one series.
        const route = request.routeOptions.url ?? "unmatched";
        const labels = { method: request.method, route, status: String(reply.statusCode) };
        requests.inc(labels);
        latency.observe(labels, reply.elapsedTime / 1000);
      },
    },
  };
}

/** Registers GET /metrics and the request hook (when enabled). */
export function registerMetrics(app: FastifyInstance, metrics: AppMetrics) {
  const on = metrics.endpoint;
  if (on) app.addHook("onResponse", async (request, reply) => on.observeRequest(request, reply));
  app.get("/metrics", { config: { isPublic: true }, schema: { hide: true } }, async (request, reply) => {
    // Off: as if there were no such route.
    if (!on) return reply.status(404).send({ code: "NOT_FOUND", message: "Not found." });
    if (!on.authorized(request.headers.authorization))
      return reply
        .status(401)
        .header("www-authenticate", 'Bearer realm="metrics"')
        .send({ code: "UNAUTHORIZED", message: "The metrics need the bearer token (METRICS_TOKEN)." });
    return reply
      .header("content-type", on.registry.contentType)
      .header("cache-control", "no-store")
      .send(await on.registry.metrics());
  });
}
