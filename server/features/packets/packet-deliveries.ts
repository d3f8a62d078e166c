import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { queryRows, type Db } from "../../db/client.ts";
import { deliveryErrorText, retryThroughOutage } from "../../db/outage-retry.ts";
import { packetDeliveries } from "../../db/schema.ts";
import type { Mailer } from "../../mail/mailer.ts";
import type { Storage } from "../../storage/storage.ts";
import { packetPdfBuffer } from "./packet-pdf.ts";
import { packetLogo } from "./packet-logo.ts";
import { packetFilename } from "./packet-send.ts";
import { loadReport } from "./report.ts";

// The monthly compliance packet e-mail (issue 30), exactly once per (project, month, recipient) as
// the request e-mails are (request-deliveries.ts): each run records the month's rows for every
// project's recipients (the unique key makes a second run a no-op), then claims due rows (FOR
// UPDATE SKIP LOCKED, 'sending' with claimed_at as the claim's token), sends the PDF attached, and
// marks them sent, or pending with backoff, or failed after the last try. A row left 'sending' past
// the lease (the process died) is claimed again; its Message-ID, derived from the row, makes a copy
// recognisable. The month is the company's (its time zone): the first run of a month sends it.

export const MAX_ATTEMPTS = 5;
export const LEASE_MS = 10 * 60_000;
/** 5, 10, 20, 40 minutes after the 1st..4th failed try. */
export const retryDelayMs = (attempts: number) => 5 * 60_000 * 2 ** (attempts - 1);
const BATCH = 10;

export interface PacketSendReport {
  recorded: number;
  sent: number;
  retrying: number;
  failed: number;
  cancelled: number;
}

export interface PacketRunOptions {
  db: Db;
  mailer: Mailer;
  storage: Storage;
  log: FastifyBaseLogger;
  clock?: () => Date;
  /** Only send what is due (the five-minute retry tick); the hourly run also records the month. */
  sendOnly?: boolean;
}

/** Records this month's packet for every recipient of every project: one statement. */
export async function recordMonthlyPackets(db: Db, now: Date): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`insert into packet_deliveries (company_id, project_id, month, recipient_email, next_attempt_at)
        select r.company_id, r.project_id,
               date_trunc('month', ${now.toISOString()}::timestamptz at time zone c.time_zone)::date,
               lower(r.email), ${now.toISOString()}::timestamptz
        from packet_recipients r
        join projects p on p.id = r.project_id and p.company_id = r.company_id
        join companies c on c.id = r.company_id
        on conflict do nothing
        returning id`,
  );
  return rows.length;
}

/**
 * A recipient removed from the project's list since the month's row was recorded gets nothing: its
 * waiting rows are cancelled before each claim (one statement).
 */
export async function cancelRemovedRecipients(db: Db): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update packet_deliveries d set status = 'cancelled', last_error = 'The recipient was removed'
        where d.status = 'pending'
          and not exists (select 1 from packet_recipients r
                          where r.project_id = d.project_id and lower(r.email) = d.recipient_email)
        returning d.id`,
  );
  return rows.length;
}

interface Claimed {
  id: string;
  company_id: string;
  project_id: string;
  month: string;
  recipient_email: string;
  attempts: number;
  claimed_at: Date;
}

async function claim(db: Db, now: Date): Promise<Claimed[]> {
  const rows = await queryRows<Claimed>(
    db,
    sql`update packet_deliveries d set status = 'sending', claimed_at = ${now.toISOString()}::timestamptz, attempts = d.attempts + 1
        where d.id in (
          select id from packet_deliveries
          where (status = 'pending' and next_attempt_at <= ${now.toISOString()}::timestamptz)
             or (status = 'sending' and claimed_at < ${new Date(now.getTime() - LEASE_MS).toISOString()}::timestamptz)
          order by next_attempt_at, id
          limit ${BATCH}
          for update skip locked)
        returning d.id, d.company_id, d.project_id, d.month::text as month, d.recipient_email, d.attempts, d.claimed_at`,
  );
  return rows.map((r) => ({ ...r, attempts: Number(r.attempts), claimed_at: new Date(r.claimed_at) }));
}

async function settle(db: Db, row: Claimed, values: Partial<typeof packetDeliveries.$inferInsert>) {
  const done = await db
    .update(packetDeliveries)
    .set(values)
    .where(
      and(
        eq(packetDeliveries.id, row.id),
        eq(packetDeliveries.status, "sending"),
        eq(packetDeliveries.claimedAt, row.claimed_at),
      ),
    )
    .returning({ id: packetDeliveries.id });
  return done.length;
}

/** The sent mark, retried through a database outage (the e-mail is out). */
const settleSent = (db: Db, row: Claimed, values: Partial<typeof packetDeliveries.$inferInsert>) =>
  retryThroughOutage(() => settle(db, row, values));

const monthName = (month: string) =>
  new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }).format(
    new Date(`${month}T00:00:00Z`),
  );

/** Records the month's packets (unless sendOnly) and sends what is due until nothing is left. */
export async function runMonthlyPackets(opts: PacketRunOptions): Promise<PacketSendReport> {
  const { db, mailer } = opts;
  const clock = opts.clock ?? (() => new Date());
  const report: PacketSendReport = { recorded: 0, sent: 0, retrying: 0, failed: 0, cancelled: 0 };
  if (!opts.sendOnly) report.recorded = await recordMonthlyPackets(db, clock());
  report.cancelled += await cancelRemovedRecipients(db);
  // One PDF per project and run, whoever it goes to.
  const pdfs = new Map<
    string,
    Promise<{ pdf: Buffer; filename: string; subject: string; text: string } | null>
  >();
  const packetOf = (row: Claimed, now: Date) => {
    let made = pdfs.get(row.project_id);
    if (!made) {
      made = (async () => {
        const scope = { companyId: row.company_id, clientIds: null };
        let loaded;
        try {
          loaded = await loadReport(db, scope, { projectId: row.project_id }, now);
        } catch {
          return null; // the project is gone
        }
        const { header, report: r } = loaded;
        const logo = await packetLogo(opts.storage, opts.log, header);
        const pdf = await packetPdfBuffer(r, { logo });
        const project = `${header.project!.name}${header.project!.number ? ` (${header.project!.number})` : ""}`;
        return {
          pdf,
          filename: packetFilename(header, now),
          subject: `Compliance packet: ${project}, ${monthName(row.month)}`,
          text:
            `${header.companyName} sends the compliance packet of ${project} for ${monthName(row.month)}, ` +
            `as of ${r.as_of_text}: ${r.summary.total} permits and bonds, ${r.summary.expired} expired, ` +
            `${r.summary.expiring_30_days} expiring in 30 days.\n\nThe PDF is attached.\n`,
        };
      })();
      pdfs.set(row.project_id, made);
    }
    return made;
  };
  const host = "permitrack.packets";
  for (;;) {
    const now = clock();
    const claimed = await claim(db, now);
    if (!claimed.length) return report;
    for (const row of claimed) {
      const packet = await packetOf(row, now).catch((err: unknown) => {
        opts.log.error({ err, projectId: row.project_id }, "monthly packet could not be made");
        return undefined;
      });
      if (packet === null) {
        report.cancelled += await settle(db, row, { status: "cancelled", lastError: "The project is gone" });
        continue;
      }
      const messageId = `<packet.${createHash("sha256").update(row.id).digest("hex").slice(0, 32)}@${host}>`;
      let sentId: string;
      try {
        if (!packet) throw new Error("The packet could not be made");
        sentId = await mailer.send({
          to: row.recipient_email,
          messageId,
          subject: packet.subject,
          text: packet.text,
          attachments: [{ filename: packet.filename, content: packet.pdf, contentType: "application/pdf" }],
        });
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
