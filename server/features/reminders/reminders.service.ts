import { asc, desc, eq, sql } from "drizzle-orm";
import { RENEWAL_PENDING_DAYS } from "../../../shared/domain/request-reminders.ts";
import type {
  DeliveryKind,
  CompanyDelivery,
  DeliveryStatus,
  PermitReminder,
  PermitReminders,
  RunReport,
} from "../../../shared/schemas/reminders.ts";
import type { LinkSigner } from "../../auth/link-signer.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { conditionTasks, permitConditions, permits, reminderDeliveries } from "../../db/schema.ts";
import type { Mailer } from "../../mail/mailer.ts";
import { sendDueReminders } from "./reminders.sender.ts";
import { previewDueReminders } from "./reminders.preview.ts";
import { sweepDueReminders } from "./reminders.sweep.ts";
import { pendingSubmission } from "./reminders.eligibility.ts";

export interface RunOptions {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  /** Signs the e-mails' 'Acknowledge' links (the app's, or the command's from the same secret). */
  links: LinkSigner;
  reminderHour: number;
  /** Defaults to the real clock; tests fix it. */
  clock?: () => Date;
  /** Run as of this day in every company (`--date`). */
  asOf?: string;
  /** Report what would go out; write and send nothing. */
  dryRun?: boolean;
  /** Send only (the frequent retry tick): recorded reminders and retries, no sweep. */
  sendOnly?: boolean;
}

const EMPTY = {
  emailsSent: 0,
  deliveriesSent: 0,
  deliveriesRetrying: 0,
  deliveriesFailed: 0,
  deliveriesCancelled: 0,
};

/** One reminders run: sweep (record what is due), then send. Used by the scheduler, the CLI and the internal route. */
export async function runReminders(opts: RunOptions): Promise<RunReport> {
  const clock = opts.clock ?? (() => new Date());
  const sweep = { now: clock(), asOf: opts.asOf, reminderHour: opts.reminderHour };
  if (opts.dryRun) {
    const items = await previewDueReminders(opts.db, sweep);
    const digests = new Map<string, RunReport["wouldSend"][number]>();
    for (const { companyName, recipientEmail, dueDate, ...item } of items) {
      const key = `${recipientEmail} ${dueDate}`;
      const digest = digests.get(key) ?? { recipientEmail, companyName, dueDate, items: [] };
      digest.items.push(item);
      digests.set(key, digest);
    }
    return { dryRun: true, recorded: 0, ...EMPTY, wouldSend: [...digests.values()] };
  }
  const recorded = opts.sendOnly ? 0 : await sweepDueReminders(opts.db, sweep);
  const sent = await sendDueReminders(opts.db, opts.mailer, {
    clock,
    publicUrl: opts.publicUrl,
    links: opts.links,
  });
  return { dryRun: false, recorded, ...sent, wouldSend: [] };
}

type DryRunItem = RunReport["wouldSend"][number]["items"][number];

/** One permit of a dry run's digest, as the command prints it. */
function dryRunLine(i: DryRunItem): string {
  const permit = `${i.permitName} (${i.permitNumber})`;
  if (i.kind === "task_due") return `Task due  ${i.taskTitle}  ${permit}  due ${i.expirationDate}, ${i.daysLeft} day(s) left`;
  if (i.kind === "task_overdue") return `Task overdue  ${i.taskTitle}  ${permit}  due ${i.expirationDate}`;
  if (i.kind === "task_escalation")
    return `Overdue task  ${i.taskTitle}  ${permit}  due ${i.expirationDate}, overdue ${i.threshold}+ day(s)`;
  if (i.kind === "overdue")
    return `Overdue  ${permit}  expired ${i.expirationDate}, ${-i.daysLeft} day(s) ago`;
  if (i.kind === "overdue_request")
    return `Overdue request  ${permit}  due ${i.expirationDate}, ${-i.daysLeft} day(s) ago`;
  if (i.kind === "escalation")
    return `Escalation  ${permit}  due ${i.expirationDate}, ${i.daysLeft} day(s) left, not renewed or acknowledged`;
  return `${String(i.threshold).padStart(2)}-day  ${permit}  expires ${i.expirationDate}, ${i.daysLeft} day(s) left`;
}

/** The report as the `npm run reminders` command prints it. */
export function formatRunReport(report: RunReport): string {
  if (report.dryRun) {
    if (!report.wouldSend.length) return "Dry run: no reminders are due; nothing would be sent.";
    const lines = [
      `Dry run: ${report.wouldSend.length} e-mail(s) would be sent (nothing was written or sent):`,
    ];
    for (const d of report.wouldSend) {
      lines.push("", `To ${d.recipientEmail} (${d.companyName}), reminders of ${d.dueDate}:`);
      for (const i of d.items) {
        lines.push(`  ${dryRunLine(i)}`);
      }
    }
    return lines.join("\n");
  }
  return [
    `Recorded ${report.recorded} new reminder(s).`,
    `Sent ${report.emailsSent} e-mail(s) covering ${report.deliveriesSent} reminder(s).`,
    `Retrying later: ${report.deliveriesRetrying}. Failed after the last try: ${report.deliveriesFailed}. Cancelled (no longer due): ${report.deliveriesCancelled}.`,
  ].join("\n");
}

type DeliveryRow = typeof reminderDeliveries.$inferSelect;

type TaskRef = PermitReminder["task"];

function presentDelivery(d: DeliveryRow, task: TaskRef = null): PermitReminder {
  return {
    id: d.id,
    kind: d.kind as DeliveryKind,
    threshold: d.threshold,
    recipientEmail: d.recipientEmail,
    status: d.status as DeliveryStatus,
    sentAt: d.sentAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
    lastError: d.lastError,
    // Only a task delivery names a task (issue 29); the others' shape is as before.
    ...(task ? { task } : {}),
  };
}

const newestFirst = [
  desc(reminderDeliveries.createdAt),
  desc(reminderDeliveries.threshold),
  asc(reminderDeliveries.expirationDate),
  asc(reminderDeliveries.recipientEmail),
];

const isoMoment = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/**
 * One permit's reminder log (the caller has checked the permit is visible): its deliveries, newest
 * first, and until when 'Renewal Pending' pauses its reminders (issue 27), in one statement.
 */
export async function permitReminders(db: Db, permitId: string): Promise<PermitReminders> {
  const rows = await queryRows<{
    until: Date | string | null;
    id: string | null;
    kind: string;
    threshold: number;
    recipient_email: string;
    status: string;
    sent_at: Date | string | null;
    created_at: Date | string;
    last_error: string | null;
    task: TaskRef;
  }>(
    db,
    sql`select x.until, d.id, d.kind, d.threshold, d.recipient_email, d.status, d.sent_at, d.created_at, d.last_error,
               case when t.id is not null then json_build_object('id', t.id, 'title', c.title, 'dueOn', t.due_on) end as task
        from (select (select max(rp.submitted_at) + make_interval(days => ${RENEWAL_PENDING_DAYS})
                      from document_requests rp
                      where rp.permit_id = ${permitId} and ${pendingSubmission(sql`now()`, "rp")}) as until) x
        left join reminder_deliveries d on d.permit_id = ${permitId}
        -- issue 29: a task delivery names its task (the condition's title, the due date)
        left join condition_tasks t on t.id = d.task_id
        left join permit_conditions c on c.id = t.condition_id
        order by d.created_at desc, d.threshold desc, d.expiration_date, d.recipient_email`,
  );
  return {
    renewalPendingUntil: isoMoment(rows[0]?.until ?? null),
    deliveries: rows
      .filter((r) => r.id !== null)
      .map((r) => ({
        id: r.id!,
        kind: r.kind as DeliveryKind,
        threshold: Number(r.threshold),
        recipientEmail: r.recipient_email,
        status: r.status as DeliveryStatus,
        sentAt: isoMoment(r.sent_at),
        createdAt: isoMoment(r.created_at)!,
        lastError: r.last_error,
        ...(r.task ? { task: r.task } : {}),
      })),
  };
}

/** A company's most recent deliveries with their permits, newest first. */
export async function companyDeliveries(
  db: Db,
  companyId: string,
  limit: number,
): Promise<CompanyDelivery[]> {
  const rows = await db
    .select({
      d: reminderDeliveries,
      permitName: permits.permitName,
      permitNumber: permits.permitNumber,
      taskTitle: permitConditions.title,
      taskDueOn: conditionTasks.dueOn,
    })
    .from(reminderDeliveries)
    // Left: an overdue digest names no permit; only a task delivery names a task (issue 29).
    .leftJoin(permits, eq(permits.id, reminderDeliveries.permitId))
    .leftJoin(conditionTasks, eq(conditionTasks.id, reminderDeliveries.taskId))
    .leftJoin(permitConditions, eq(permitConditions.id, conditionTasks.conditionId))
    .where(eq(reminderDeliveries.companyId, companyId))
    .orderBy(...newestFirst)
    .limit(limit);
  return rows.map(({ d, permitName, permitNumber, taskTitle, taskDueOn }) => ({
    ...presentDelivery(
      d,
      d.taskId && taskTitle !== null && taskDueOn !== null ? { id: d.taskId, title: taskTitle, dueOn: taskDueOn } : null,
    ),
    dueDate: d.dueDate,
    expirationDate: d.expirationDate,
    attempts: d.attempts,
    permit: d.permitId ? { id: d.permitId, name: permitName ?? "", number: permitNumber ?? "" } : null,
  }));
}
