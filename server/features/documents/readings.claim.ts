import { sql } from "drizzle-orm";
import { queryRows, type Db } from "../../db/client.ts";

// Step 1 of reading (reader.worker.ts): claiming due readings, like the reminders' claim
// (reminders.claim.ts): a short transaction, `for update skip locked`, so two processes on one
// database never take the same row; a row left 'reading' past its lease (the process died mid-read)
// is claimed again, and one that has used up its tries is given up.

/** Tries per document (a failure that is not the document's own: storage, a crash). */
export const READ_ATTEMPTS = 3;
export const GAVE_UP =
  "The document could not be read after 3 tries (the reader stopped or the file could not be fetched).";

export interface ClaimedReading {
  id: string;
  companyId: string;
  sha256: string;
  sourceKey: string | null;
  filename: string;
  contentType: string;
  staged: boolean;
  attempts: number;
  /** The claim's time: the row's result is written only while it still carries it. */
  claimedAt: string;
  dateOrder: "MDY" | "DMY";
}

const iso = (d: Date) => d.toISOString();

/**
 * Claims up to `max` due readings (pending and due, or 'reading' past the lease), oldest due first;
 * first gives up those whose last try's lease ran out (status failed, in words).
 */
export async function claimDueReadings(
  db: Db,
  now: Date,
  leaseMs: number,
  max: number,
): Promise<ClaimedReading[]> {
  const expired = iso(new Date(now.getTime() - leaseMs));
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`update document_readings
          set status = 'failed', error = ${GAVE_UP}, claimed_at = null, finished_at = ${iso(now)}::timestamptz
          where status = 'reading' and claimed_at < ${expired}::timestamptz and attempts >= ${READ_ATTEMPTS}`,
    );
    return queryRows<ClaimedReading>(
      tx,
      sql`with due as (
            select r.id from document_readings r
            where (r.status = 'pending' and r.next_attempt_at <= ${iso(now)}::timestamptz)
               or (r.status = 'reading' and r.claimed_at < ${expired}::timestamptz)
            order by r.next_attempt_at, r.id
            limit ${max}
            for update skip locked
          )
          update document_readings d
          set status = 'reading', claimed_at = ${iso(now)}::timestamptz, attempts = d.attempts + 1
          from due, companies c
          where d.id = due.id and c.id = d.company_id
          returning d.id, d.company_id as "companyId", d.sha256, d.source_key as "sourceKey", d.filename,
            d.content_type as "contentType", d.staged, d.attempts, ${iso(now)} as "claimedAt",
            c.date_order as "dateOrder"`,
    );
  });
}
