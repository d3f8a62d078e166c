import { createHash } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { LinkSigner } from "../../auth/link-signer.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { deliveryErrorText, retryThroughOutage } from "../../db/outage-retry.ts";
import { companies, documentRequests, permits, requestDeliveries } from "../../db/schema.ts";
import type { Mailer } from "../../mail/mailer.ts";
import { documentLabel, type DocumentKind } from "../../../shared/domain/document-requests.ts";
import { unsealLinkToken } from "./link-token.ts";
import { REQUEST_MAIL_COMPOSERS, requestLinkUrl } from "./request-mail.ts";
import { reminderRefusal } from "./party-reminder.ts";
import { todayIn } from "../../../shared/domain/dates.ts";

// The party's e-mails, exactly once (DESIGN.md section 5, as the reminders): a write records a
// pending request_deliveries row in its own transaction; a sender claims due rows (FOR UPDATE SKIP
// LOCKED, 'sending' with claimed_at as the claim's token), sends, and marks them sent, or pending
// with backoff, or failed after the last try. A row left 'sending' past the lease (the process
// died) is claimed again, and its Message-ID, derived from the row, makes a copy recognisable.
// The sender runs right after the write commits and on every scheduler tick.

export const MAX_ATTEMPTS = 5;
export const LEASE_MS = 10 * 60_000;
/** 5, 10, 20, 40 minutes after the 1st..4th failed try. */
export const retryDelayMs = (attempts: number) => 5 * 60_000 * 2 ** (attempts - 1);
const BATCH = 20;

export type RequestDeliveryKind = "request" | "rejection" | "reminder";

/** Records an e-mail to the request's party, in the caller's transaction (sent after it commits). */
export async function enqueueRequestDelivery(
  tx: Db,
  request: { id: string; companyId: string; partyEmail: string; dueDate: string | null },
  kind: RequestDeliveryKind,
  threshold = 0,
): Promise<void> {
  await tx
    .insert(requestDeliveries)
    .values({
      companyId: request.companyId,
      requestId: request.id,
      kind,
      threshold,
      dueDate: request.dueDate,
      recipientEmail: request.partyEmail,
    })
    .onConflictDoNothing();
}

export interface RequestSendOptions {
  publicUrl: string;
  links: LinkSigner;
  clock?: () => Date;
}

export interface RequestSendReport {
  sent: number;
  retrying: number;
  failed: number;
  cancelled: number;
}

interface Claimed {
  id: string;
  kind: string;
  attempts: number;
  threshold: number;
  recipient_email: string;
  claimed_at: Date;
  request_id: string;
  /** The due date a reminder was recorded for. */
  due_date: string | null;
}

/** Claims up to BATCH due rows whose kind has a composer. */
async function claim(db: Db, now: Date): Promise<Claimed[]> {
  const kinds = Object.keys(REQUEST_MAIL_COMPOSERS);
  const rows = await queryRows<Claimed>(
    db,
    sql`update request_deliveries d set status = 'sending', claimed_at = ${now}, attempts = d.attempts + 1
        where d.id in (
          select id from request_deliveries
          where kind = any(${`{${kinds.join(",")}}`}::text[])
            and ((status = 'pending' and next_attempt_at <= ${now})
              or (status = 'sending' and claimed_at < ${new Date(now.getTime() - LEASE_MS)}))
          order by next_attempt_at, id
          limit ${BATCH}
          for update skip locked)
        returning d.id, d.kind, d.attempts, d.threshold, d.recipient_email, d.claimed_at, d.request_id,
                  d.due_date::text as due_date`,
  );
  return rows.map((r) => ({ ...r, attempts: Number(r.attempts), claimed_at: new Date(r.claimed_at) }));
}

/** Marks a row still carrying our claim. */
async function settle(db: Db, row: Claimed, values: Partial<typeof requestDeliveries.$inferInsert>) {
  const done = await db
    .update(requestDeliveries)
    .set(values)
    .where(
      and(
        eq(requestDeliveries.id, row.id),
        eq(requestDeliveries.status, "sending"),
        eq(requestDeliveries.claimedAt, row.claimed_at),
      ),
    )
    .returning({ id: requestDeliveries.id });
  return done.length;
}

/** The sent mark, retried through a database outage (the e-mail is out). */
const settleSent = (db: Db, row: Claimed, values: Partial<typeof requestDeliveries.$inferInsert>) =>
  retryThroughOutage(() => settle(db, row, values));

/** What the e-mail needs of the request, its company and item. */
async function loadMail(db: Db, requestId: string) {
  const [row] = await db
    .select({
      request: documentRequests,
      companyName: companies.name,
      timeZone: companies.timeZone,
      itemName: permits.permitName,
      itemNumber: permits.permitNumber,
    })
    .from(documentRequests)
    .innerJoin(companies, eq(companies.id, documentRequests.companyId))
    .innerJoin(permits, eq(permits.id, documentRequests.permitId))
    .where(eq(documentRequests.id, requestId));
  return row ?? null;
}

/**
 * Claims and sends the party's due e-mails until none is left (failed ones are rescheduled in the
 * future, so the loop ends). A request revoked or approved before its e-mail went out cancels it
 * (a due-date reminder also once submitted, its link expired, its due date moved or passed:
 * party-reminder.ts);
 * a link that can no longer be unsealed (SESSION_SECRET changed) fails it at once.
 */
export async function sendDueRequestDeliveries(
  db: Db,
  mailer: Mailer,
  opts: RequestSendOptions,
): Promise<RequestSendReport> {
  const report: RequestSendReport = { sent: 0, retrying: 0, failed: 0, cancelled: 0 };
  const host = new URL(opts.publicUrl).hostname;
  for (;;) {
    const now = (opts.clock ?? (() => new Date()))();
    const claimed = await claim(db, now);
    if (!claimed.length) return report;
    for (const row of claimed) {
      const data = await loadMail(db, row.request_id);
      const r = data?.request;
      if (!data || !r || r.status === "revoked" || r.status === "approved") {
        report.cancelled += await settle(db, row, {
          status: "cancelled",
          lastError: "The request is closed",
        });
        continue;
      }
      // A reminder (issue 27) also stops once the party answered, the link expired or the due date moved or passed.
      const refusal =
        row.kind === "reminder"
          ? reminderRefusal({ request: r, dueDate: row.due_date, today: todayIn(data.timeZone, now), now })
          : null;
      if (refusal) {
        report.cancelled += await settle(db, row, { status: "cancelled", lastError: refusal });
        continue;
      }
      const token = unsealLinkToken(opts.links, r.tokenSealed);
      if (!token) {
        report.failed += await settle(db, row, {
          status: "failed",
          lastError: "The link cannot be read: sealed under another SESSION_SECRET",
        });
        continue;
      }
      const mail = REQUEST_MAIL_COMPOSERS[row.kind]!({
        kind: row.kind,
        partyName: r.partyName,
        companyName: data.companyName,
        documentLabel: documentLabel(r.documentKind as DocumentKind, r.title),
        message: r.message,
        dueDate: r.dueDate,
        itemName: data.itemName,
        itemNumber: data.itemNumber,
        rejectReason: r.rejectReason,
        threshold: row.threshold,
        link: requestLinkUrl(opts.publicUrl, token),
      });
      const messageId = `<request.${createHash("sha256").update(row.id).digest("hex").slice(0, 32)}@${host}>`;
      let sentId: string;
      try {
        sentId = await mailer.send({ to: row.recipient_email, messageId, ...mail });
      } catch (err) {
        const lastError = deliveryErrorText(err);
        if (row.attempts >= MAX_ATTEMPTS) {
          report.failed += await settle(db, row, { status: "failed", lastError });
        } else {
          report.retrying += await settle(db, row, {
            status: "pending",
            lastError,
            nextAttemptAt: new Date(now.getTime() + retryDelayMs(row.attempts)),
          });
        }
        continue;
      }
      report.sent += await settleSent(db, row, {
        status: "sent",
        sentAt: now,
        messageId: sentId,
        lastError: null,
      });
    }
  }
}

/** The deliveries of some requests (staff views, tests). */
export async function deliveriesOf(db: Db, requestIds: string[]) {
  if (!requestIds.length) return [];
  return db.select().from(requestDeliveries).where(inArray(requestDeliveries.requestId, requestIds));
}
