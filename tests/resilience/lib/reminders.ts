import { addDays, todayIn } from "../../../shared/domain/dates.ts";
import { openDatabase } from "../../../server/db/client.ts";
import { userNotifications } from "../../../server/db/schema.ts";
import { CLAIM_LEASE_MS } from "../../../server/features/reminders/reminders.claim.ts";
import { factories } from "../../../server/test-support/factories.ts";
import type { ReceivedMail } from "../../../server/test-support/test-smtp.ts";
import { query } from "./postgres.ts";
import { waitFor } from "./util.ts";

export interface ReminderFixture {
  companyId: string;
  recipients: string[];
  permits: number;
}

/**
 * A company (UTC) with `recipients` staff who receive reminders and one permit due for each of
 * `daysLeft` (7 → its 7-day reminder today, ...). With REMINDER_HOUR=0 all of it is due now: one
 * digest per recipient, listing every permit.
 */
export async function reminderFixture(
  databaseUrl: string,
  opts: { recipients: number; daysLeft: number[]; label: string },
): Promise<ReminderFixture> {
  const database = await openDatabase({ databaseUrl, poolSize: 2 });
  try {
    const make = factories(database.db);
    const company = await make.company({ name: `Reminders ${opts.label}`, timeZone: "UTC" });
    const recipients: string[] = [];
    for (let i = 0; i < opts.recipients; i++) {
      const user = await make.user({
        role: i ? "company-user" : "company-admin",
        companyId: company.id,
        email: `r${i}.${opts.label}@reminders.example`,
      });
      await database.db.insert(userNotifications).values({ userId: user.id, companyId: company.id });
      recipients.push(user.email);
    }
    const client = await make.client(company.id);
    const project = await make.project({ companyId: company.id, clientId: client.id });
    const today = todayIn("UTC");
    for (const days of opts.daysLeft) {
      await make.permit({
        companyId: company.id,
        projectId: project.id,
        expirationDate: addDays(today, days),
      });
    }
    return { companyId: company.id, recipients, permits: opts.daysLeft.length };
  } finally {
    await database.close();
  }
}

/** Each recipient's delivery statuses, e.g. "a@x" → ["sent", "sent"]. */
export async function statusesByRecipient(databaseUrl: string, companyId: string) {
  const rows = await query<{ email: string; status: string }>(
    databaseUrl,
    "select recipient_email as email, status from reminder_deliveries where company_id = $1",
    [companyId],
  );
  const by = new Map<string, string[]>();
  for (const r of rows) by.set(r.email, [...(by.get(r.email) ?? []), r.status]);
  return by;
}

export async function deliveryCounts(databaseUrl: string, companyId: string) {
  const rows = await query<{ status: string; n: number }>(
    databaseUrl,
    "select status, count(*)::int as n from reminder_deliveries where company_id = $1 group by status",
    [companyId],
  );
  const counts = { pending: 0, sending: 0, sent: 0, failed: 0, cancelled: 0 };
  for (const r of rows) if (r.status in counts) counts[r.status as keyof typeof counts] = r.n;
  return counts;
}

/**
 * Waits until every recorded reminder of the company is sent (or failed): nothing pending or
 * claimed, and at least the fixture's reminders recorded (the sweep may add others of its own,
 * such as escalations, to the same digests).
 */
export async function waitAllSent(databaseUrl: string, f: ReminderFixture, timeoutMs = 60_000) {
  const expected = f.recipients.length * f.permits;
  return waitFor(
    `all ${expected} reminders of ${f.companyId} to be sent`,
    async () => {
      const c = await deliveryCounts(databaseUrl, f.companyId);
      return c.sent + c.failed >= expected && c.pending + c.sending === 0 ? c : null;
    },
    { timeoutMs, intervalMs: 200 },
  );
}

/**
 * Claims a dead process left 'sending' are taken over once the lease (10 minutes) has passed.
 * The suite does not wait 10 minutes: it moves those claims back by the lease, which is what
 * waiting would do, and nothing else.
 */
export async function expireClaims(databaseUrl: string, companyId: string): Promise<number> {
  const rows = await query(
    databaseUrl,
    `update reminder_deliveries set claimed_at = claimed_at - make_interval(secs => $2::int)
     where company_id = $1 and status = 'sending' returning id`,
    [companyId, Math.ceil(CLAIM_LEASE_MS / 1000) + 1],
  );
  return rows.length;
}

export interface DeliveryTally {
  /** Recipients with no accepted digest. */
  lost: string[];
  /** Recipients who got two different digests (different Message-IDs) for the day. */
  duplicated: string[];
  /** Extra copies of one digest with the same Message-ID (the at-least-once window). */
  identicalResends: number;
  accepted: number;
  byClient: Record<string, number>;
}

/** What the SMTP server accepted for these recipients, per recipient. */
export function tally(messages: ReceivedMail[], recipients: string[]): DeliveryTally {
  const mine = new Set(recipients);
  const per = new Map<string, ReceivedMail[]>();
  const byClient: Record<string, number> = {};
  let accepted = 0;
  for (const m of messages) {
    const to = m.to[0] ?? "";
    if (!mine.has(to)) continue;
    accepted++;
    byClient[m.client] = (byClient[m.client] ?? 0) + 1;
    per.set(to, [...(per.get(to) ?? []), m]);
  }
  const lost = recipients.filter((r) => !per.has(r));
  const duplicated = [...per]
    .filter(([, ms]) => new Set(ms.map((m) => m.messageId)).size > 1)
    .map(([r]) => r);
  const identicalResends = [...per.values()].reduce(
    (n, ms) => n + ms.length - new Set(ms.map((m) => m.messageId)).size,
    0,
  );
  return { lost, duplicated, identicalResends, accepted, byClient };
}
