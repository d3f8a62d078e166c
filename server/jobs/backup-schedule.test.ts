import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.ts";
import { openDatabase, type Database } from "../db/client.ts";
import { jobRuns, users } from "../db/schema.ts";
import { createTestContext, type TestContext } from "../test-support/harness.ts";
import { startTestSmtp, type TestSmtp } from "../test-support/test-smtp.ts";
import { startScheduler } from "./scheduler.ts";

/*
 * Issue 26: the nightly backup runs once across every app node (the job claim in job_runs), is
 * recorded for the admin area and /metrics, and a failure is e-mailed to the super-admins. Two
 * apps, each with its own scheduler, over one database: on PostgreSQL each with a pool of its own
 * (two nodes), on PGlite over the one embedded instance.
 */

const TOKEN = "metrics-token-0123456789abcdef";
const ON_PG = process.env.TEST_DB === "pg";
let smtp: TestSmtp;
let backupDir: string;
const t = {} as TestContext;
let other: { app: FastifyInstance; database: Database };

beforeAll(async () => {
  smtp = await startTestSmtp();
  backupDir = fs.mkdtempSync(path.join(os.tmpdir(), "permitrack-nightly-"));
  Object.assign(
    t,
    await createTestContext({
      SMTP_URL: smtp.url,
      SCHEDULER: "on",
      BACKUP_DIR: backupDir,
      BACKUP_HOUR: "2",
      METRICS_TOKEN: TOKEN,
    }),
  );
  const url = (t.database.pool?.options as { connectionString?: string } | undefined)?.connectionString;
  const database = ON_PG ? await openDatabase({ databaseUrl: url, poolSize: 4 }) : t.database;
  const app = await buildApp({
    config: { ...t.app.ctx.config },
    database,
    webDir: path.join(t.dataDir, "no-web"),
  });
  await app.ready();
  other = { app, database };
});

afterAll(async () => {
  await other?.app.close();
  if (ON_PG) await other?.database.close();
  await t.close?.();
  await smtp?.close();
  fs.rmSync(backupDir, { recursive: true, force: true });
});

const backupRuns = () => t.db.select().from(jobRuns).where(eq(jobRuns.job, "backup"));

/** The value of one series of /metrics (0 when absent). */
async function series(app: FastifyInstance, name: string): Promise<number> {
  const res = await app.inject({
    method: "GET",
    url: "/metrics",
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(res.statusCode).toBe(200);
  const line = res.body.split("\n").find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : 0;
}

describe("the nightly backup", () => {
  it("is taken once for the night whatever the number of nodes, and shows on the Admin Dashboard", async () => {
    const superAdmin = await t.signIn(await t.make.user({ role: "super-admin" }));
    await t.make.permit({ companyId: (await t.make.company()).id });
    // Both nodes start after 02:30 UTC with tonight's backup not taken: both try to catch up.
    const clock = () => new Date("2026-11-27T03:00:00Z");
    const schedulers = [startScheduler(t.app, { clock }), startScheduler(other.app, { clock })];
    await Promise.all(schedulers.map((s) => s.stop()));

    const backups = fs.readdirSync(backupDir);
    expect(backups).toEqual(["permitrack-backup-20261127T030000Z"]);
    const runs = await backupRuns();
    expect(runs.map((r) => [r.runKey, r.status])).toEqual([["2026-11-27", "succeeded"]]);
    // One node took it, the other found it claimed.
    const outcomes = await Promise.all(
      [t.app, other.app].flatMap((app) =>
        ["succeeded", "skipped"].map((o) =>
          series(app, `permitrack_job_runs_total{job="backup",outcome="${o}"}`),
        ),
      ),
    );
    expect(outcomes.sort()).toEqual([0, 0, 1, 1]);

    const status = await superAdmin.get("/api/admin/backups/last");
    expect(status.statusCode).toBe(200);
    const manifest = JSON.parse(fs.readFileSync(path.join(backupDir, backups[0]!, "manifest.json"), "utf8"));
    expect(status.json()).toEqual({
      nightly: true,
      last: {
        status: "succeeded",
        startedAt: "2026-11-27T03:00:00.000Z",
        finishedAt: expect.any(String),
        location: "permitrack-backup-20261127T030000Z",
        sizeBytes: manifest.totalBytes,
        error: null,
      },
    });
    expect(await series(t.app, "permitrack_last_backup_age_seconds")).toBeGreaterThan(0);

    // The same night again (a restart): nothing more.
    await startScheduler(other.app, { clock }).stop();
    expect(fs.readdirSync(backupDir)).toHaveLength(1);
    expect(await backupRuns()).toHaveLength(1);
  });

  it("records a failure, e-mails every super-admin and shows it on the Admin Dashboard", async () => {
    const superAdmin = await t.signIn(await t.make.user({ role: "super-admin" }));
    const disabled = await t.make.user({ role: "super-admin" });
    await t.db.update(users).set({ banned: true }).where(eq(users.id, disabled.id));
    const admins = (await t.db.select().from(users))
      .filter((u) => u.role === "super-admin" && !u.banned)
      .map((u) => u.email);
    // BACKUP_DIR is a file: the backup cannot be written.
    const blocked = path.join(backupDir, "not-a-folder");
    fs.writeFileSync(blocked, "");
    t.app.ctx.config.BACKUP_DIR = blocked;
    try {
      await startScheduler(t.app, { clock: () => new Date("2026-11-28T02:45:00Z") }).stop();
    } finally {
      t.app.ctx.config.BACKUP_DIR = backupDir;
    }
    const failed = (await backupRuns()).find((r) => r.runKey === "2026-11-28")!;
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/ENOTDIR|not a directory/);

    const mails = smtp.messages.filter((m) => m.subject === "Permitrack backup failed");
    expect(mails.flatMap((m) => m.to).sort()).toEqual(admins.sort());
    expect(mails[0]!.decoded).toContain(failed.error!);
    expect(mails.flatMap((m) => m.to)).not.toContain(disabled.email);

    const status = (await superAdmin.get("/api/admin/backups/last")).json();
    expect(status.last).toMatchObject({ status: "failed", error: failed.error, sizeBytes: null });
    expect(await series(t.app, `permitrack_job_runs_total{job="backup",outcome="failed"}`)).toBe(1);
  });

  it("shows the last backup to super-admins only", async () => {
    for (const role of ["company-admin", "company-user", "client-user"] as const) {
      const company = await t.make.company();
      const api = await t.signIn(await t.make.user({ role, companyId: company.id }));
      expect((await api.get("/api/admin/backups/last")).statusCode, role).toBe(403);
    }
    expect((await t.anonymous.get("/api/admin/backups/last")).statusCode).toBe(401);
  });
});
