/** The reminders feature's public face: its routes, the run the jobs start, and the delivery lists. */
export { remindersRoutes } from "./reminders.routes.ts";
export { companyDeliveries, formatRunReport, runReminders } from "./reminders.service.ts";
export { sendDueReminders } from "./reminders.sender.ts";
export { sweepDueReminders } from "./reminders.sweep.ts";
