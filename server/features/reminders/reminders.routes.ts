import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { CONTROL_TOKEN_HEADER } from "../../../shared/domain/constants.ts";
import { ErrorResponseSchema, IdParamsSchema, errorResponses } from "../../../shared/schemas/common.ts";
import {
  PermitRemindersSchema,
  RunReportSchema,
  RunRemindersSchema,
} from "../../../shared/schemas/reminders.ts";
import { canViewPermitReminders } from "../../access/policies/reminders.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize, notFound } from "../../errors.ts";
import { findVisiblePermit } from "../permits/index.ts";
import { permitDeliveries, runReminders } from "./reminders.service.ts";

const errors = errorResponses(401, 403, 404);
const digest = (value: string) => createHash("sha256").update(value).digest();

/** Constant-time check of the control token; only from this machine. */
function isLocalControlRequest(request: FastifyRequest, token: string | undefined): boolean {
  const presented = request.headers[CONTROL_TOKEN_HEADER];
  const remote = request.socket.remoteAddress ?? "";
  const isLoopback = remote === "127.0.0.1" || remote === "::1" || remote === "::ffff:127.0.0.1";
  if (!token || typeof presented !== "string" || !isLoopback) return false;
  return timingSafeEqual(digest(presented), digest(token));
}

/** A permit's reminder log, and the internal run the `npm run reminders` command calls. */
export async function remindersRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  r.get(
    "/api/permits/:id/reminders",
    {
      schema: {
        tags: ["reminders"],
        summary: "Reminder e-mails of a permit (staff only: they name staff e-mail addresses)",
        params: IdParamsSchema,
        response: { 200: PermitRemindersSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const permit = await findVisiblePermit(db, actor, request.params.id);
      authorize(canViewPermitReminders(actor, permit));
      return { deliveries: await permitDeliveries(db, permit.id) };
    },
  );

  r.post(
    "/api/internal/reminders/run",
    {
      // No session: the local command proves itself with the control token instead.
      config: { isPublic: true },
      schema: {
        hide: true,
        body: RunRemindersSchema,
        response: { 200: RunReportSchema, 404: ErrorResponseSchema },
      },
    },
    async (request) => {
      // Indistinguishable from a missing route to anyone without the token.
      if (!isLocalControlRequest(request, app.ctx.controlToken)) throw notFound("Route");
      const { config, mailer } = app.ctx;
      return runReminders({
        db,
        mailer,
        publicUrl: config.publicUrl,
        links: app.ctx.links,
        reminderHour: config.REMINDER_HOUR,
        asOf: request.body.date,
        dryRun: request.body.dryRun,
      });
    },
  );
}
