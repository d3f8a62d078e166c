import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { ErrorResponseSchema, errorResponses } from "../../../shared/schemas/common.ts";
import {
  CompanyQuerySchema,
  NotificationSettingsSchema,
  TestEmailResultSchema,
  UpdateNotificationSettingsSchema,
} from "../../../shared/schemas/notifications.ts";
import { CompanyDeliveriesSchema, DeliveriesQuerySchema } from "../../../shared/schemas/reminders.ts";
import {
  canEditNotificationSettings,
  canManageNotificationSettings,
} from "../../access/policies/notification-settings.ts";
import { actorOf } from "../../auth/plugin.ts";
import { AppError, authorize } from "../../errors.ts";
import { companyDeliveries } from "../reminders/index.ts";
import { loadSettings, saveSettings, settingsCompany } from "./notifications.service.ts";
import { paths } from "../../../shared/domain/paths.ts";

const errors = errorResponses(400, 401, 403, 404);

/** Notification settings (spec section 2): reminder switches, recipients, delivery log, test e-mail. */
export async function notificationsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  r.get(
    "/api/notifications/settings",
    {
      schema: {
        tags: ["notifications"],
        summary: "A company's reminder switches and recipients",
        querystring: CompanyQuerySchema,
        response: { 200: NotificationSettingsSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canManageNotificationSettings(actor));
      const company = await settingsCompany(db, actor, request.query.company_id);
      return loadSettings(db, actor, company, app.ctx.config.REMINDER_HOUR);
    },
  );

  r.put(
    "/api/notifications/settings",
    {
      schema: {
        tags: ["notifications"],
        summary: "Save a company's reminder switches and replace its recipient list",
        querystring: CompanyQuerySchema,
        body: UpdateNotificationSettingsSchema,
        response: { 200: NotificationSettingsSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canManageNotificationSettings(actor));
      const company = await settingsCompany(db, actor, request.query.company_id);
      authorize(canEditNotificationSettings(actor, company));
      await saveSettings(db, actor, company, request.body);
      return loadSettings(db, actor, company, app.ctx.config.REMINDER_HOUR);
    },
  );

  r.get(
    "/api/notifications/deliveries",
    {
      schema: {
        tags: ["notifications"],
        summary: "A company's most recent reminder deliveries, newest first",
        querystring: DeliveriesQuerySchema,
        response: { 200: CompanyDeliveriesSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canManageNotificationSettings(actor));
      const company = await settingsCompany(db, actor, request.query.company_id);
      return { deliveries: await companyDeliveries(db, company.id, request.query.limit) };
    },
  );

  r.post(
    "/api/notifications/test-email",
    {
      schema: {
        tags: ["notifications"],
        summary: "Send a test e-mail to the signed-in user through the configured mailer",
        response: { 200: TestEmailResultSchema, ...errors, 502: ErrorResponseSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canManageNotificationSettings(actor));
      const { mailer, config } = app.ctx;
      try {
        const messageId = await mailer.send({
          to: actor.email,
          subject: "Permitrack test e-mail",
          text: [
            `Hello ${actor.name},`,
            "",
            "This is a test e-mail from Permitrack. If you can read it, reminder e-mails reach this address the same way.",
            "",
            `Notification settings: ${config.publicUrl}${paths.notificationSettings}`,
            "",
          ].join("\n"),
        });
        return { to: actor.email, messageId };
      } catch (err) {
        request.log.warn({ err }, "test e-mail failed");
        const reason = err instanceof Error ? err.message : String(err);
        // The admin needs the mail server's reason to fix the setup; it names no secret.
        throw new AppError(502, "INTERNAL", `The test e-mail could not be sent: ${reason}`);
      }
    },
  );
}
