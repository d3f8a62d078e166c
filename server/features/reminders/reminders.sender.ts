import { createHash } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import type { LinkSigner } from "../../auth/link-signer.ts";
import type { Db } from "../../db/client.ts";
import { deliveryErrorText, retryThroughOutage } from "../../db/outage-retry.ts";
import { reminderDeliveries } from "../../db/schema.ts";
import type { Mailer } from "../../mail/mailer.ts";
import { composeDigest } from "./reminders.digest.ts";
import { loadDigest } from "./reminders.digest-load.ts";
import { claimDueGroups, type ClaimedRow } from "./reminders.claim.ts";

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

export const MAX_ATTEMPTS = 5;
/** 5, 10, 20, 40 minutes after the 1st..4th failed try; the 5th failure is final. */
export const retryDelayMs = (attempts: number) => 5 * 60_000 * 2 ** (attempts - 1);

export interface SendOptions {
  /** Read once per claim round, so a long run never claims with a stale time (tests fix it). */
  clock: () => Date;
  publicUrl: string;
  /** Signs each item's 'Acknowledge' link. */
  links: LinkSigner;
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

export { MAX_OVERDUE_LINES } from "./reminders.digest-load.ts";

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

/** The sent mark, retried through a database outage: the digest is out (server/db/outage-retry.ts). */
const settleSent = (
  db: Db,
  ids: string[],
  claimedAt: Date,
  values: Partial<typeof reminderDeliveries.$inferInsert>,
): Promise<number> => retryThroughOutage(() => settle(db, ids, claimedAt, values));

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
        const digest = await loadDigest(db, ids, rows[0]!.dueDate, now, opts.links);
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
          const lastError = deliveryErrorText(err);
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
