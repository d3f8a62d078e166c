import { z } from "zod";
import { IdSchema, IsoDateSchema } from "./common.ts";

/**
 * A reminder delivery's life: pending -> sending -> sent, or back to pending for a retry, or
 * failed after the last try; cancelled when, at send time, it is no longer due (permit archived
 * or N/A, expiration date changed, threshold switched off, recipient removed).
 */
export const DELIVERY_STATUSES = ["pending", "sending", "sent", "failed", "cancelled"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const DELIVERY_STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: "Pending",
  sending: "Sending",
  sent: "Sent",
  failed: "Failed",
  cancelled: "Cancelled",
};

/** GET /api/permits/:id/reminders: one permit's delivery log, newest first. */
export const DELIVERY_KINDS = [
  "reminder",
  "escalation",
  "overdue",
  "overdue_request",
  // Issue 29: a condition's task, due within 7 days (to its owner), overdue (to its owner), and
  // overdue for the company's Escalation Days (to its admins).
  "task_due",
  "task_overdue",
  "task_escalation",
] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

/** The kinds of a delivery about a condition's task (issue 29): the log names the task. */
export const TASK_DELIVERY_KINDS = ["task_due", "task_overdue", "task_escalation"] as const;
export const isTaskDelivery = (kind: DeliveryKind) => (TASK_DELIVERY_KINDS as readonly string[]).includes(kind);

/**
 * "30-day reminder", "Escalation", "Overdue digest", "Overdue request digest", "Task due: TITLE",
 * "Task overdue: TITLE", "Overdue task escalation: TITLE": what a delivery was, for the logs.
 */
export function deliveryLabel(d: {
  kind: DeliveryKind;
  threshold: number;
  task?: { title: string } | null;
}): string {
  if (d.kind === "escalation") return "Escalation";
  if (d.kind === "overdue") return "Overdue digest";
  if (d.kind === "overdue_request") return "Overdue request digest";
  const task = d.task ? `: ${d.task.title}` : "";
  if (d.kind === "task_due") return `Task due${task}`;
  if (d.kind === "task_overdue") return `Task overdue${task}`;
  if (d.kind === "task_escalation") return `Overdue task escalation${task}`;
  return `${d.threshold}-day reminder`;
}

export const PermitReminderSchema = z.object({
  id: z.uuid(),
  /**
   * reminder (30/7/1 days before), escalation (to the admins), overdue (the admins' daily digest),
   * overdue_request (document requests past their due date: the admins' and responsible people's, daily),
   * task_due / task_overdue / task_escalation (a condition's task, issue 29; `task` names it).
   */
  kind: z.enum(DELIVERY_KINDS),
  threshold: z.number().int(),
  recipientEmail: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  sentAt: z.string().nullable(),
  createdAt: z.string(),
  lastError: z.string().nullable(),
  /** Issue 29: the condition task a task delivery is about (its condition's title and due date); else absent or null. */
  task: z.object({ id: z.uuid(), title: z.string(), dueOn: z.string() }).nullable().optional(),
});
export type PermitReminder = z.infer<typeof PermitReminderSchema>;
export const PermitRemindersSchema = z.object({
  deliveries: z.array(PermitReminderSchema),
  /**
   * Set while 'Renewal Pending' pauses the permit's reminders (a document request's submission awaits
   * review, issue 27): the moment they resume unless it is reviewed first.
   */
  renewalPendingUntil: z.string().nullable(),
});
export type PermitReminders = z.infer<typeof PermitRemindersSchema>;

/** GET /api/notifications/deliveries: a company's recent deliveries, newest first. */
export const CompanyDeliverySchema = PermitReminderSchema.extend({
  dueDate: z.string(),
  expirationDate: z.string(),
  attempts: z.number().int(),
  /** Null for an overdue or overdue-request digest, which lists the company's overdue permits or requests. */
  permit: z.object({ id: z.uuid(), name: z.string(), number: z.string() }).nullable(),
});
export type CompanyDelivery = z.infer<typeof CompanyDeliverySchema>;
export const CompanyDeliveriesSchema = z.object({ deliveries: z.array(CompanyDeliverySchema) });
export type CompanyDeliveries = z.infer<typeof CompanyDeliveriesSchema>;

export const DeliveriesQuerySchema = z.object({
  company_id: IdSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** POST /api/internal/reminders/run (the `npm run reminders` command talking to the server). */
export const RunRemindersSchema = z.object({
  dryRun: z.boolean().default(false),
  /** Run as of this company-local day instead of today. */
  date: IsoDateSchema.optional(),
});
export type RunReminders = z.infer<typeof RunRemindersSchema>;

const DueItemSchema = z.object({
  kind: z.enum(DELIVERY_KINDS),
  threshold: z.number().int(),
  permitId: z.uuid(),
  permitName: z.string(),
  permitNumber: z.string(),
  expirationDate: z.string(),
  daysLeft: z.number().int(),
  /** Issue 29: a task line's task (expirationDate and daysLeft are then its due date's). */
  taskTitle: z.string().nullable().optional(),
});

/** What one run did (or, dry, would do). */
export const RunReportSchema = z.object({
  dryRun: z.boolean(),
  /**
   * Deliveries newly recorded by the sweep: the staff's, and the parties' reminders of document
   * requests (issue 27).
   */
  recorded: z.number().int(),
  emailsSent: z.number().int(),
  deliveriesSent: z.number().int(),
  deliveriesRetrying: z.number().int(),
  deliveriesFailed: z.number().int(),
  deliveriesCancelled: z.number().int(),
  /** Dry run only: the digests that would go out, by recipient and day (reminders, escalations, overdue). */
  wouldSend: z.array(
    z.object({
      recipientEmail: z.string(),
      companyName: z.string(),
      dueDate: z.string(),
      items: z.array(DueItemSchema),
    }),
  ),
});
export type RunReport = z.infer<typeof RunReportSchema>;
