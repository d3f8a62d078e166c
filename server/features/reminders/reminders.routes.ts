import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { ErrorResponseSchema, IdParamsSchema, errorResponses } from "../../../shared/schemas/common.ts";
import {
  PermitRemindersSchema,
  RunReportSchema,
  RunRemindersSchema,
} from "../../../shared/schemas/reminders.ts";
import { canViewPermitReminders } from "../../access/policies/reminders.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize, notFound } from "../../errors.ts";
import { isLocalControlRequest } from "../../http/control-token.ts";
import { findVisiblePermit } from "../permits/index.ts";
import { permitReminders, runReminders } from "./reminders.service.ts";

const errors = errorResponses(401, 403, 404);

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
      return permitReminders(db, permit.id);
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
