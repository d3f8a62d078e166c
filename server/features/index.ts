import type { FastifyInstance } from "fastify";
import { attachmentsRoutes } from "./attachments/attachments.routes.ts";
import { auditRoutes } from "./audit/audit.routes.ts";
import { calendarRoutes } from "./calendar/calendar.routes.ts";
import { clientsRoutes } from "./clients/clients.routes.ts";
import { commentsRoutes } from "./comments/comments.routes.ts";
import { permitsRoutes } from "./permits/permits.routes.ts";
import { companiesRoutes } from "./companies/companies.routes.ts";
import { impersonationRoutes } from "./impersonation/impersonation.routes.ts";
import { exportsRoutes } from "./exports/exports.routes.ts";
import { importsRoutes } from "./imports/imports.routes.ts";
import { notificationsRoutes } from "./notifications/notifications.routes.ts";
import { projectsRoutes } from "./projects/projects.routes.ts";
import { remindersRoutes } from "./reminders/reminders.routes.ts";
import { templatesRoutes } from "./templates/templates.routes.ts";
import { usersRoutes } from "./users/users.routes.ts";

/**
 * Registers every feature's routes. Each feature lives in its own folder and exposes one
 * `<feature>Routes` plugin; features call each other's services, never their internals.
 */
export async function registerFeatures(app: FastifyInstance) {
  await app.register(permitsRoutes);
  await app.register(commentsRoutes);
  await app.register(attachmentsRoutes);
  await app.register(auditRoutes);
  await app.register(clientsRoutes);
  await app.register(projectsRoutes);
  await app.register(templatesRoutes);
  await app.register(companiesRoutes);
  await app.register(usersRoutes);
  await app.register(impersonationRoutes);
  await app.register(notificationsRoutes);
  await app.register(remindersRoutes);
  await app.register(calendarRoutes);
  await app.register(importsRoutes);
  await app.register(exportsRoutes);
}
