import { createHash } from "node:crypto";
import { and, asc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { queryRows, type Db } from "../../db/client.ts";
import { databaseUnavailable } from "../../db/errors.ts";
import { clients, companies, permits, projects, reminderDeliveries, users } from "../../db/schema.ts";
import type { Mailer } from "../../mail/mailer.ts";
import { signAcknowledgeToken } from "../lifecycle/index.ts";
import { selectPermitView } from "../permits/index.ts";
import { composeDigest, type Digest, type DigestItem } from "./reminders.digest.ts";
import { ESCALATION_ROLES, RECIPIENT_ROLES } from "./reminders.sweep.ts";

/**
 * Sending recorded reminders, safe with any number of senders (processes or instances):
 *
 * 1. Claim: in one short transaction, serialised across processes by an advisory lock, whole
 *    (recipient, day) groups of due rows are set to 'sending' with claimed_at as the claim's
 *    fencing token (FOR UPDATE SKIP LOCKED), and those no longer due are cancelled. Claiming
 *    whole groups is what keeps it to one e-mail per recipient per day even with two senders.
 * 2. Send one digest per group, then mark its rows 'sent' (or pending with backoff, or 'failed'
 *    after the last try) — only while they still carry our token.
 *
 * A row left 'sending' longer than the lease (the process died) is claimed again. That is the
 * one window where a reminder can go out twice: the SMTP server accepted the digest and the
 * process died before recording it. We choose at-least-once there (a lost reminder is worse than
 * a repeated one), and the digest's Message-ID is derived from its deliveries so that the copy
 * carries the same id as the original and mail clients that de-duplicate drop it. A row once
 * 'sent' is never claimed again, so retries never repeat a sent reminder. SMTP timeouts
 * (mailer.ts) are far below the lease, so a slow send cannot outlive its claim.
 */

export const CLAIM_LEASE_MS = 10 * 60_000;
export const MAX_ATTEMPTS = 5;
/** 5, 10, 20, 40 minutes after the 1st..4th failed try; the 5th failure is final. */
export const retryDelayMs = (attempts: number) => 5 * 60_000 * 2 ** (attempts - 1);

/** Claims run one at a time across every process (short transactions; the key is arbitrary but fixed). */
const CLAIM_LOCK_KEY = 7_301_605_001;
/**
 * Groups claimed per round. A round's digests are sent in parallel, so a round lasts about one
 * SMTP exchange: far inside the lease even when every send runs into its timeouts.
 */
const GROUPS_PER_ROUND = 16;

export interface SendOptions {
  /** Read once per claim round, so a long run never claims with a stale time (tests fix it). */
  clock: () => Date;
  publicUrl: string;
  /** The app secret: signs each item's 'Acknowledge' link. Without it the e-mails carry no such link. */
  ackSecret?: string;
  /** Host part of digest Message-IDs. */
  messageIdHost?: string;
}

export interface SendReport {
  emailsSent: number;
  deliveriesSent: number;
  deliveriesRetrying: number;
  deliveriesFailed: number;
  deliveriesCancelled: number;
}

const claimable = (now: Date, alias = "r") => {
  const r = sql.raw(alias);
  return sql`((${r}.status = 'pending' and ${r}.next_attempt_at <= ${now.toISOString()}::timestamptz)
     or (${r}.status = 'sending' and ${r}.claimed_at < ${new Date(now.getTime() - CLAIM_LEASE_MS).toISOString()}::timestamptz))`;
};

interface ClaimedRow {
  id: string;
  recipientUserId: string;
  dueDate: string;
  attempts: number;
}

/**
 * Claims whole (recipient, day) groups of due rows, then cancels those of them that are no
 * longer due. Both steps touch only the claimed rows, so a round costs the same however many
 * reminders are waiting.
 */
export async function claimDueGroups(
  db: Db,
  now: Date,
  maxGroups = GROUPS_PER_ROUND,
): Promise<{ claimed: ClaimedRow[]; cancelled: number }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK_KEY})`);
    // Groups are picked from the rows due longest, read off the (status, next_attempt_at) index.
    const claimed = await queryRows<ClaimedRow>(
      tx,
      sql`with heads as (
            select r.recipient_user_id, r.due_date, r.next_attempt_at from reminder_deliveries r
            where ${claimable(now)}
            order by r.next_attempt_at
            limit ${maxGroups * 64}
          ),
          groups as (
            select recipient_user_id, due_date from heads
            group by recipient_user_id, due_date
            order by min(next_attempt_at), recipient_user_id, due_date
            limit ${maxGroups}
          )
          update reminder_deliveries d
          set status = 'sending', claimed_at = ${now.toISOString()}::timestamptz, attempts = d.attempts + 1
          where d.id in (
            select r.id from reminder_deliveries r
            where ${claimable(now)} and (r.recipient_user_id, r.due_date) in (select * from groups)
            for update skip locked)
          returning d.id, d.recipient_user_id as "recipientUserId", d.due_date::text as "dueDate", d.attempts`,
    );
    if (!claimed.length) return { claimed, cancelled: 0 };
    // Re-checked now rather than trusted from the sweep: things change between the two.
    const ids = sql.join(
      claimed.map((r) => sql`${r.id}::uuid`),
      sql`, `,
    );
    const cancelled = await queryRows<{ id: string }>(
      tx,
      sql`update reminder_deliveries d
          set status = 'cancelled', last_error = x.reason, claimed_at = null, attempts = d.attempts - 1
          from (
            select r.id,
              case
                when p.archived then 'Permit archived'
                when p.status = 'N/A' then 'Permit marked N/A'
                when p.close_date is not null then 'Permit closed'
                when p.term_no <> r.term_no then 'Permit renewed'
                when r.kind <> 'overdue' and p.acknowledged_at is not null then 'Acknowledged'
                when r.kind <> 'overdue' and p.countdown_date is distinct from r.expiration_date then 'Expiration date changed'
                when r.kind = 'reminder' and not (case r.threshold when 30 then coalesce(cp.email_30_day, true)
                                           when 7 then coalesce(cp.email_7_day, true)
                                           when 1 then coalesce(cp.email_1_day, true)
                                           else false end) then 'Reminder switched off'
                when r.kind = 'overdue' and not coalesce(cp.overdue_digest, true) then 'Overdue digest switched off'
                when r.kind = 'overdue' and not exists (
                       select 1 from permits q
                       where q.company_id = r.company_id and q.expiration_date < r.due_date
                         and not q.archived and q.status <> 'N/A' and q.close_date is null)
                  then 'Nothing overdue any more'
                when u.banned or u.company_id is distinct from r.company_id then 'Recipient removed'
                when r.kind = 'reminder' and (u.role not in ${RECIPIENT_ROLES}
                     or (un.user_id is null and p.responsible_user_id is distinct from r.recipient_user_id)) then 'Recipient removed'
                when r.kind <> 'reminder' and u.role not in ${ESCALATION_ROLES} then 'Recipient removed'
              end as reason
            from reminder_deliveries r
            -- An overdue digest names no permit (it lists the company's when sent): p is null there.
            left join permits p on p.id = r.permit_id
            join users u on u.id = r.recipient_user_id
            left join company_preferences cp on cp.company_id = r.company_id
            left join user_notifications un on un.user_id = r.recipient_user_id and un.company_id = r.company_id
            where r.id in (${ids})
          ) x
          where d.id = x.id and x.reason is not null
          returning d.id`,
    );
    const gone = new Set(cancelled.map((r) => r.id));
    return { claimed: claimed.filter((r) => !gone.has(r.id)), cancelled: gone.size };
  });
}

type DigestRow = Omit<DigestItem, "acknowledgeToken"> & {
  recipientUserId: string;
  termNo: number;
  countdownDate: string;
};

/** The columns a digest line needs, from the permit view. */
const digestColumns = {
  permitId: permits.id,
  permitName: permits.permitName,
  permitNumber: permits.permitNumber,
  recordType: permits.recordType,
  projectName: projects.name,
  clientName: clients.name,
  agency: permits.agency,
  expirationDate: permits.expirationDate,
  renewByDate: permits.renewByDate,
};

/**
 * Loads what a digest shows for the claimed rows of one group: reminders and escalations with their
 * permits (one statement), and for an overdue digest the company's expired open permits as of its
 * day (one more), each listed once.
 */
async function loadDigest(
  db: Db,
  ids: string[],
  dueDate: string,
  ackSecret?: string,
): Promise<Digest | null> {
  const [head] = await db
    .select({
      recipientEmail: reminderDeliveries.recipientEmail,
      firstName: users.firstName,
      lastName: users.lastName,
      companyName: companies.name,
    })
    .from(reminderDeliveries)
    .innerJoin(users, eq(users.id, reminderDeliveries.recipientUserId))
    .innerJoin(companies, eq(companies.id, reminderDeliveries.companyId))
    .where(inArray(reminderDeliveries.id, ids))
    .limit(1);
  if (!head) return null;
  const perPermit: DigestRow[] = (
    await selectPermitView(db, {
      ...digestColumns,
      recipientUserId: reminderDeliveries.recipientUserId,
      kind: reminderDeliveries.kind,
      termNo: reminderDeliveries.termNo,
      threshold: reminderDeliveries.threshold,
      countdownDate: reminderDeliveries.expirationDate,
      daysLeft: sql<number>`(${reminderDeliveries.expirationDate} - ${reminderDeliveries.dueDate})::int`,
    })
      .innerJoin(reminderDeliveries, eq(reminderDeliveries.permitId, permits.id))
      .where(inArray(reminderDeliveries.id, ids))
  ).map((r) => ({
    ...r,
    kind: r.kind as DigestItem["kind"],
    expirationDate: r.expirationDate ?? r.countdownDate,
  }));
  const overdue = await loadOverdue(db, ids, dueDate);
  const rows = [...perPermit, ...overdue];
  if (!rows.length) return null;
  return {
    recipientEmail: head.recipientEmail,
    recipientName: `${head.firstName} ${head.lastName}`.trim() || head.recipientEmail,
    companyName: head.companyName,
    dueDate,
    items: rows.map(({ recipientUserId, termNo, countdownDate, ...item }) => ({
      ...item,
      // Reminders and escalations can be acknowledged from the e-mail; overdue notices go on until renewal.
      acknowledgeToken:
        ackSecret && item.kind !== "overdue"
          ? signAcknowledgeToken(ackSecret, {
              permitId: item.permitId,
              recipientUserId,
              termNo,
              dueOn: countdownDate,
            })
          : null,
    })),
  };
}

/** The permits an overdue digest among `ids` lists: its company's expired open permits as of its day. */
async function loadOverdue(db: Db, ids: string[], dueDate: string): Promise<DigestRow[]> {
  const [digest] = await db
    .select({ companyId: reminderDeliveries.companyId, recipientUserId: reminderDeliveries.recipientUserId })
    .from(reminderDeliveries)
    .where(and(inArray(reminderDeliveries.id, ids), eq(reminderDeliveries.kind, "overdue")))
    .limit(1);
  if (!digest) return [];
  const rows = await selectPermitView(db, {
    ...digestColumns,
    termNo: permits.termNo,
    daysLeft: sql<number>`(${permits.expirationDate} - ${dueDate}::date)::int`,
  })
    .where(
      and(
        eq(permits.companyId, digest.companyId),
        sql`${permits.expirationDate} < ${dueDate}::date`,
        eq(permits.archived, false),
        ne(permits.status, "N/A"),
        isNull(permits.closeDate),
      ),
    )
    .orderBy(asc(permits.expirationDate), asc(permits.permitName))
    .limit(MAX_OVERDUE_LINES);
  return rows.map((r) => ({
    ...r,
    kind: "overdue" as const,
    threshold: 0,
    expirationDate: r.expirationDate!,
    countdownDate: r.expirationDate!,
    recipientUserId: digest.recipientUserId,
  }));
}

/** An overdue digest lists at most this many permits (the oldest first); the page has the rest. */
export const MAX_OVERDUE_LINES = 500;

/** Marks rows still carrying our claim; a row taken over after the lease is left to its new owner. */
async function settle(
  db: Db,
  ids: string[],
  claimedAt: Date,
  values: Partial<typeof reminderDeliveries.$inferInsert>,
): Promise<number> {
  const rows = await db
    .update(reminderDeliveries)
    .set(values)
    .where(
      and(
        inArray(reminderDeliveries.id, ids),
        eq(reminderDeliveries.status, "sending"),
        eq(reminderDeliveries.claimedAt, claimedAt),
      ),
    )
    .returning({ id: reminderDeliveries.id });
  return rows.length;
}

/**
 * How long the sent mark of a digest the SMTP server has taken is retried while the database is
 * unreachable. Given up, the rows stay claimed and the digest goes out again after the lease (a
 * copy with the same Message-ID); so this stays well inside the lease.
 */
export const SENT_MARK_RETRY_MS = 2 * 60_000;

/**
 * The sent mark, retried through a database outage: the digest is out, and giving up here is the
 * only way a reminder goes out twice from a process that is still alive.
 */
async function settleSent(
  db: Db,
  ids: string[],
  claimedAt: Date,
  values: Partial<typeof reminderDeliveries.$inferInsert>,
): Promise<number> {
  const deadline = Date.now() + SENT_MARK_RETRY_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await settle(db, ids, claimedAt, values);
    } catch (err) {
      if (!databaseUnavailable(err) || Date.now() >= deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 250 * 2 ** attempt)));
    }
  }
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000);

/** Claims and sends until nothing claimable is left. */
export async function sendDueReminders(db: Db, mailer: Mailer, opts: SendOptions): Promise<SendReport> {
  const report: SendReport = {
    emailsSent: 0,
    deliveriesSent: 0,
    deliveriesRetrying: 0,
    deliveriesFailed: 0,
    deliveriesCancelled: 0,
  };
  const host = opts.messageIdHost ?? new URL(opts.publicUrl).hostname;
  for (;;) {
    const now = opts.clock();
    const { claimed, cancelled } = await claimDueGroups(db, now);
    report.deliveriesCancelled += cancelled;
    // Failed groups are rescheduled in the future, so the loop ends once every due group was tried.
    if (!claimed.length) return report;
    const groups = new Map<string, ClaimedRow[]>();
    for (const row of claimed) {
      const key = `${row.recipientUserId} ${row.dueDate}`;
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    const results = await Promise.allSettled(
      [...groups.values()].map(async (rows) => {
        const ids = rows.map((r) => r.id).sort();
        const digest = await loadDigest(db, ids, rows[0]!.dueDate, opts.ackSecret);
        if (!digest) return; // its permits were deleted meanwhile (the rows went with them)
        const messageId = `<reminders.${createHash("sha256").update(ids.join(",")).digest("hex").slice(0, 32)}@${host}>`;
        let sentId: string;
        try {
          sentId = await mailer.send({
            to: digest.recipientEmail,
            messageId,
            ...composeDigest(digest, opts.publicUrl),
          });
        } catch (err) {
          // Rows of a group are claimed together, so they share one attempt count.
          const attempts = Math.max(...rows.map((r) => r.attempts));
          const lastError = errorText(err);
          // (`report.x += await ...` would read report.x before the await and lose parallel updates.)
          if (attempts >= MAX_ATTEMPTS) {
            const failed = await settle(db, ids, now, { status: "failed", lastError });
            report.deliveriesFailed += failed;
          } else {
            const retrying = await settle(db, ids, now, {
              status: "pending",
              lastError,
              nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempts)),
            });
            report.deliveriesRetrying += retrying;
          }
          return;
        }
        // Outside the try: a database error here must not turn a sent digest into a retry.
        report.emailsSent++;
        const sent = await settleSent(db, ids, now, {
          status: "sent",
          sentAt: now,
          messageId: sentId,
          lastError: null,
        });
        report.deliveriesSent += sent;
      }),
    );
    // Only database errors get here; the rows they left 'sending' are taken over after the lease.
    const failure = results.find((r) => r.status === "rejected");
    if (failure) throw failure.reason;
  }
}
