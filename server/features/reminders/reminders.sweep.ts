import { sql, type SQL } from "drizzle-orm";
import { queryRows, type Db } from "../../db/client.ts";

/**
 * The reminder sweep (DESIGN.md section 5): one set-based statement finds every due
 * (permit, threshold, recipient) in every company and records it under the delivery table's
 * unique key (permit, threshold, expiration date, recipient), so running it again, from another
 * process or after a crash, records nothing twice.
 *
 * Due means: the company has the threshold switched on; the permit is not archived, not N/A and
 * has an expiration date; and the days left (expiration date minus the company's "today") are at
 * or below the threshold but above the next lower switched-on threshold, and never below 0.
 * Consequences:
 * - a missed day is caught up once (the window spans every day down to the next threshold);
 * - a permit created 5 days before expiry gets only its 7-day reminder, not three at once;
 * - an already expired permit gets nothing: a "N days before" reminder after the fact is noise;
 * - a changed expiration date is a new key, so it gets its own reminders.
 */

export interface SweepOptions {
  /** The clock; tests pass a fixed instant. */
  now: Date;
  /** Run as of this day in every company instead of each company's own today. */
  asOf?: string;
  /**
   * A company's reminder day starts at this local hour: before it, "today" is still yesterday,
   * so each company gets its reminders at REMINDER_HOUR in its own zone however often we sweep.
   */
  reminderHour: number;
}

/** Staff roles that may receive a company-wide digest (a client-user sees only its clients). */
export const RECIPIENT_ROLES = sql`('company-admin', 'company-user')`;

/**
 * SELECT of everything due now: company_id, permit_id, threshold, expiration_date,
 * recipient_user_id, recipient_email, due_date. Thresholds 30/7/1 map to the company's switches;
 * no preferences row means all on (spec section 9).
 */
function dueSelect(opts: SweepOptions): SQL {
  const today = opts.asOf
    ? sql`${opts.asOf}::date`
    : sql`((${opts.now.toISOString()}::timestamptz at time zone c.time_zone) - make_interval(hours => ${opts.reminderHour}))::date`;
  return sql`
    with co as (
      select c.id as company_id, ${today} as today,
             coalesce(cp.email_30_day, true) as e30,
             coalesce(cp.email_7_day, true) as e7,
             coalesce(cp.email_1_day, true) as e1
      from companies c
      left join company_preferences cp on cp.company_id = c.id
      where exists (select 1 from user_notifications un where un.company_id = c.id)
    ),
    win as (
      select co.company_id, co.today, t.threshold,
             coalesce(lead(t.threshold) over (partition by co.company_id order by t.threshold desc), -1) as lower_bound
      from co
      cross join lateral (values (30, co.e30), (7, co.e7), (1, co.e1)) as t(threshold, enabled)
      where t.enabled
    )
    select p.company_id, p.id as permit_id, w.threshold, p.expiration_date,
           u.id as recipient_user_id, u.email as recipient_email, w.today as due_date
    from win w
    join permits p
      on p.company_id = w.company_id
     and p.expiration_date > w.today + w.lower_bound
     and p.expiration_date <= w.today + w.threshold
     and not p.archived
     and p.status <> 'N/A'
    join user_notifications un on un.company_id = w.company_id
    join users u
      on u.id = un.user_id
     and u.company_id = w.company_id
     and not u.banned
     and u.role in ${RECIPIENT_ROLES}`;
}

/** Sweeps run one at a time across processes (the key is arbitrary but fixed). */
const SWEEP_LOCK_KEY = 7_301_605_002;

/**
 * Records every due reminder; returns how many new deliveries were recorded. Concurrent sweeps
 * are serialised, so a recipient's reminders of a day are recorded by one statement and a sender
 * never sees half of them.
 */
export async function sweepDueReminders(db: Db, opts: SweepOptions): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SWEEP_LOCK_KEY})`);
    const [row] = await queryRows<{ n: number }>(
      tx,
      sql`with ins as (
          insert into reminder_deliveries
            (company_id, permit_id, threshold, expiration_date, recipient_user_id, recipient_email, due_date, next_attempt_at)
          select d.*, ${opts.now.toISOString()}::timestamptz from (${dueSelect(opts)}) d
          on conflict (permit_id, threshold, expiration_date, recipient_user_id) do nothing
          returning 1
        )
        select count(*)::int as n from ins`,
    );
    return row?.n ?? 0;
  });
}

export interface DueItem {
  companyName: string;
  recipientEmail: string;
  dueDate: string;
  threshold: number;
  permitId: string;
  permitName: string;
  permitNumber: string;
  expirationDate: string;
  daysLeft: number;
}

/**
 * What the next send would carry, written nowhere (`npm run reminders -- --dry-run`): reminders
 * the sweep would record now plus those already recorded and waiting to be sent.
 */
export async function previewDueReminders(db: Db, opts: SweepOptions): Promise<DueItem[]> {
  return queryRows<DueItem>(
    db,
    sql`with due as (
          select d.permit_id, d.threshold, d.expiration_date, d.recipient_email, d.due_date
          from (${dueSelect(opts)}) d
          where not exists (
            select 1 from reminder_deliveries r
            where r.permit_id = d.permit_id and r.threshold = d.threshold
              and r.expiration_date = d.expiration_date and r.recipient_user_id = d.recipient_user_id)
          union all
          select r.permit_id, r.threshold, r.expiration_date, r.recipient_email, r.due_date
          from reminder_deliveries r
          where r.status in ('pending', 'sending')
        )
        select c.name as "companyName", due.recipient_email as "recipientEmail", due.due_date::text as "dueDate",
               due.threshold, p.id as "permitId", p.permit_name as "permitName", p.permit_number as "permitNumber",
               due.expiration_date::text as "expirationDate", (due.expiration_date - due.due_date)::int as "daysLeft"
        from due
        join permits p on p.id = due.permit_id
        join companies c on c.id = p.company_id
        order by c.name, due.recipient_email, due.due_date, due.threshold desc, due.expiration_date, p.permit_name`,
  );
}
