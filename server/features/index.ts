import type { FastifyInstance } from "fastify";
import { apiKeysRoutes } from "./api-keys/index.ts";
import { webhooksRoutes } from "./webhooks/index.ts";
import { attachmentsRoutes } from "./attachments/index.ts";
import { backupsRoutes } from "./backups/index.ts";
import { authRoutes, twoFactorRoutes } from "./auth/index.ts";
import { bondsRoutes } from "./bonds/index.ts";
import { auditRoutes } from "./audit/index.ts";
import { calendarRoutes } from "./calendar/index.ts";
import { clientsRoutes } from "./clients/index.ts";
import { commentsRoutes } from "./comments/index.ts";
import { conditionsRoutes, eventsRoutes, tasksRoutes } from "./conditions/index.ts";
import { permitsRoutes } from "./permits/index.ts";
import { companiesRoutes } from "./companies/index.ts";
import { contactsRoutes } from "./contacts/index.ts";
import { documentsRoutes } from "./documents/index.ts";
import { impersonationRoutes } from "./impersonation/index.ts";
import { exportsRoutes } from "./exports/index.ts";
import { importsRoutes } from "./imports/index.ts";
import { lifecycleRoutes } from "./lifecycle/index.ts";
import { notificationsRoutes } from "./notifications/index.ts";
import { packetsRoutes, statusLinksRoutes } from "./packets/index.ts";
import { projectsRoutes } from "./projects/index.ts";
import { acknowledgeRoutes, remindersRoutes } from "./reminders/index.ts";
import { requestLinkRoutes, requestQueueRoutes, requestsRoutes } from "./requests/index.ts";
import { savedViewsRoutes } from "./saved-views/index.ts";
import { suretiesRoutes } from "./sureties/index.ts";
import { templatesRoutes } from "./templates/index.ts";
import { usersRoutes } from "./users/index.ts";

/**
 * Registers every feature's routes: the composition root. Each feature lives in its own folder and
 * exposes its `<feature>Routes` plugin and what others may use through its index.ts, never its internals.
 */
export async function registerFeatures(app: FastifyInstance) {
  await app.register(authRoutes);
  await app.register(twoFactorRoutes);
  await app.register(permitsRoutes);
  await app.register(commentsRoutes);
  await app.register(lifecycleRoutes);
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
  await app.register(acknowledgeRoutes);
  await app.register(calendarRoutes);
  await app.register(importsRoutes);
  await app.register(exportsRoutes);
  await app.register(savedViewsRoutes);
  await app.register(suretiesRoutes);
  await app.register(contactsRoutes);
  await app.register(bondsRoutes);
  await app.register(backupsRoutes);
  await app.register(requestsRoutes);
  await app.register(requestQueueRoutes);
  await app.register(requestLinkRoutes);
  await app.register(documentsRoutes);
  await app.register(apiKeysRoutes);
  await app.register(webhooksRoutes);
  await app.register(conditionsRoutes);
  await app.register(tasksRoutes);
  await app.register(eventsRoutes);
  await app.register(packetsRoutes);
  await app.register(statusLinksRoutes);
}
