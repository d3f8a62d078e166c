import { createHash } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { queryRows, type Db } from "../../db/client.ts";
import { clients, companies, permits, projects, reminderDeliveries, users } from "../../db/schema.ts";
import type { Mailer } from "../../mail/mailer.ts";
import { composeDigest, type Digest } from "./reminders.digest.ts";
import { RECIPIENT_ROLES } from "./reminders.sweep.ts";

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
                when p.expiration_date is distinct from r.expiration_date then 'Expiration date changed'
                when not (case r.threshold when 30 then coalesce(cp.email_30_day, true)
                                           when 7 then coalesce(cp.email_7_day, true)
                                           when 1 then coalesce(cp.email_1_day, true)
                                           else false end) then 'Reminder switched off'
                when un.user_id is null or u.banned or u.company_id is distinct from r.company_id
                     or u.role not in ${RECIPIENT_ROLES} then 'Recipient removed'
              end as reason
            from reminder_deliveries r
            join permits p on p.id = r.permit_id
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

/** Loads what a digest shows for the claimed rows of one group. */
async function loadDigest(db: Db, ids: string[], dueDate: string): Promise<Digest | null> {
  const rows = await db
    .select({
      recipientEmail: reminderDeliveries.recipientEmail,
      firstName: users.firstName,
      lastName: users.lastName,
      companyName: companies.name,
      threshold: reminderDeliveries.threshold,
      permitId: permits.id,
      permitName: permits.permitName,
      permitNumber: permits.permitNumber,
      recordType: permits.recordType,
      projectName: projects.name,
      clientName: clients.name,
      agency: permits.agency,
      expirationDate: reminderDeliveries.expirationDate,
      daysLeft: sql<number>`(${reminderDeliveries.expirationDate} - ${reminderDeliveries.dueDate})::int`,
    })
    .from(reminderDeliveries)
    .innerJoin(permits, eq(permits.id, reminderDeliveries.permitId))
    .innerJoin(users, eq(users.id, reminderDeliveries.recipientUserId))
    .innerJoin(companies, eq(companies.id, reminderDeliveries.companyId))
    .leftJoin(projects, eq(projects.id, permits.projectId))
    .leftJoin(clients, eq(clients.id, permits.clientId))
    .where(inArray(reminderDeliveries.id, ids));
  const first = rows[0];
  if (!first) return null;
  return {
    recipientEmail: first.recipientEmail,
    recipientName: `${first.firstName} ${first.lastName}`.trim() || first.recipientEmail,
    companyName: first.companyName,
    dueDate,
    items: rows.map(({ recipientEmail: _e, firstName: _f, lastName: _l, companyName: _c, ...item }) => item),
  };
}

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
        const digest = await loadDigest(db, ids, rows[0]!.dueDate);
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
        const sent = await settle(db, ids, now, {
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
