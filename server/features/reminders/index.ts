/**
 * The reminders feature's public face: its routes (a permit's reminder log, the internal run, the
 * e-mails' Acknowledge link), the run the jobs start, the delivery lists, and the link's token.
 */
export { acknowledgeRoutes } from "./acknowledge.routes.ts";
export { remindersRoutes } from "./reminders.routes.ts";
export { companyDeliveries, formatRunReport, runReminders } from "./reminders.service.ts";
export { sendDueReminders } from "./reminders.sender.ts";
export { sweepDueReminders } from "./reminders.sweep.ts";
export { signAcknowledgeToken, type AcknowledgeClaim } from "./acknowledge-token.ts";
