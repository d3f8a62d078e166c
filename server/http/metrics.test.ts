import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { todayIn } from "../../shared/domain/dates.ts";
import { backupSource, runManualBackup } from "../features/backups/index.ts";
import { startScheduler } from "../jobs/scheduler.ts";
import { createTestContext, useTestContext } from "../test-support/harness.ts";
import { quiesce, reminderCompany } from "../test-support/reminder-fixtures.ts";

/*
 * Issue 26, metrics: GET /metrics is off (404) unless METRICS_TOKEN is set, then answers only to
 * that bearer token, in Prometheus' text format, with the families docs/OPERATIONS.md describes.
 */

const TOKEN = "metrics-token-0123456789abcdef";
// REMINDER_HOUR 0: today's reminders are due whatever the hour the test runs at.
const t = useTestContext({ METRICS_TOKEN: TOKEN, SCHEDULER: "on", REMINDER_HOUR: "0" });
const work = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-metrics-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const scrape = (authorization?: string) =>
  t.app.inject({ method: "GET", url: "/metrics", headers: authorization ? { authorization } : {} });

/** `name{labels} value` lines → value, for the series the test names. */
function value(body: string, series: string): number | undefined {
  const line = body.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("GET /metrics", () => {
  it("does not exist without METRICS_TOKEN, whatever the request carries", async () => {
    const off = await createTestContext();
    try {
      for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
        const res = await off.app.inject({ method: "GET", url: "/metrics", headers });
        expect(res.statusCode).toBe(404);
        expect(res.body).not.toContain("permitrack_");
      }
    } finally {
      await off.close();
    }
  });

  it("answers 401 without the bearer token or with another", async () => {
    for (const authorization of [
      undefined,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(1)}`,
      TOKEN,
      `Basic ${TOKEN}`,
    ]) {
      const res = await scrape(authorization);
      expect(res.statusCode, authorization).toBe(401);
      expect(res.headers["www-authenticate"]).toBe('Bearer realm="metrics"');
      expect(res.body).not.toContain("permitrack_");
    }
  });

  it("counts requests by route pattern and status, jobs, reminders, the pool and the last backup's age", async () => {
    const admin = await t.signIn(await t.make.user({ role: "super-admin" }));
    const permit = await t.make.permit({ companyId: (await t.make.company()).id });
    for (let i = 0; i < 3; i++) expect((await admin.get(`/api/permits/${permit.id}`)).statusCode).toBe(200);
    expect((await admin.get(`/api/permits/${t.make.uuid()}`)).statusCode).toBe(404);
    // One reminder due today: the scheduler's start-up run sends it (to the outbox).
    const co = await reminderCompany(t);
    await co.permit(todayIn("UTC"), 7);
    await startScheduler(t.app).stop();
    await quiesce(t.db);
    await runManualBackup(t.db, backupSource(t.app.ctx), work);

    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = res.body;
    const route = 'method="GET",route="/api/permits/:id"';
    expect(value(body, `permitrack_http_requests_total{${route},status="200"}`)).toBe(3);
    expect(value(body, `permitrack_http_requests_total{${route},status="404"}`)).toBe(1);
    expect(body).not.toContain(permit.id); // the pattern, never the path
    expect(value(body, `permitrack_http_request_duration_seconds_count{${route},status="200"}`)).toBe(3);
    expect(body).toContain(
      `permitrack_http_request_duration_seconds_bucket{le="0.005",${route},status="200"}`,
    );
    expect(value(body, 'permitrack_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    expect(body).toMatch(/^permitrack_db_pool_connections\{state="waiting"\} \d+$/m);
    expect(value(body, 'permitrack_job_runs_total{job="reminders",outcome="succeeded"}')).toBe(1);
    expect(value(body, 'permitrack_job_duration_seconds_count{job="reminders"}')).toBe(1);
    expect(value(body, "permitrack_reminders_sent_total")).toBe(1);
    expect(value(body, "permitrack_reminder_emails_sent_total")).toBe(1);
    expect(value(body, "permitrack_reminders_failed_total")).toBe(0);
    const age = value(body, "permitrack_last_backup_age_seconds")!;
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(60);
    expect(value(body, "permitrack_process_resident_memory_bytes")).toBeGreaterThan(0);
  });
});
