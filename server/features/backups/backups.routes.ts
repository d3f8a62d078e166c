import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  BackupStatusSchema,
  RunBackupReportSchema,
  RunBackupSchema,
} from "../../../shared/schemas/backups.ts";
import { ErrorResponseSchema, errorResponses } from "../../../shared/schemas/common.ts";
import { canViewBackups } from "../../access/policies/backup.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize, notFound } from "../../errors.ts";
import { isLocalControlRequest } from "../../http/control-token.ts";
import { runManualBackup } from "./backup-jobs.ts";
import { lastBackup, lastSuccessfulBackupAt } from "./backup-runs.ts";
import { backupSource } from "./backup-source.ts";

/** The last backup for the Admin Dashboard, and the internal run `npm run backup` calls on PGlite. */
export async function backupsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db, config } = app.ctx;
  app.ctx.metrics.gauge(
    "last_backup_age_seconds",
    "Seconds since the last successful backup finished (nightly or by hand); absent before the first",
    async () => {
      const at = await lastSuccessfulBackupAt(db);
      return at ? (Date.now() - at.getTime()) / 1000 : null;
    },
  );

  r.get(
    "/api/admin/backups/last",
    {
      schema: {
        tags: ["admin"],
        summary: "The last backup's time, size and result (super-admin)",
        response: { 200: BackupStatusSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      authorize(canViewBackups(actorOf(request)));
      const last = await lastBackup(db);
      return {
        nightly: Boolean(config.BACKUP_DIR),
        last: last && {
          ...last,
          startedAt: last.startedAt.toISOString(),
          finishedAt: last.finishedAt?.toISOString() ?? null,
        },
      };
    },
  );

  r.post(
    "/api/internal/backups/run",
    {
      // No session: the local command proves itself with the control token instead.
      config: { isPublic: true },
      schema: {
        hide: true,
        body: RunBackupSchema,
        response: { 200: RunBackupReportSchema, 404: ErrorResponseSchema },
      },
    },
    async (request) => {
      // Indistinguishable from a missing route to anyone without the token.
      if (!isLocalControlRequest(request, app.ctx.controlToken)) throw notFound("Route");
      const result = await runManualBackup(db, backupSource(app.ctx), path.resolve(request.body.out));
      const counts = Object.values(result.manifest.tables);
      return {
        dir: result.dir,
        totalBytes: result.manifest.totalBytes,
        ms: result.ms,
        tables: counts.length,
        rows: counts.reduce((a, b) => a + b, 0),
        files: result.manifest.files.items.length,
      };
    },
  );
}
