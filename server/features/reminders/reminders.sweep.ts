import { sql, type SQL } from "drizzle-orm";
import { queryRows, type Db } from "../../db/client.ts";
import {
  ESCALATION_ROLES,
  RECIPIENT_ROLES,
  RENEWAL_PENDING_REASON,
  activeMember,
  hasOverduePermit,
  hasOverdueRequestFor,
  openPermit,
  renewalPending,
  unacknowledged,
} from "./reminders.eligibility.ts";
import { partyReminderSelect } from "./reminders.party-sweep.ts";
import { companiesCte, type SweepOptions } from "./reminders.day.ts";
import { taskCounts, taskSweepCtes } from "./reminders.task-sweep.ts";

export type { SweepOptions };

/**
 * The reminder sweep (DESIGN.md section 5, issue 11): set-based statements find every due
 * (permit, term, kind, recipient) in every company and record it under the delivery table's
 * unique keys, so running it again, from another process or after a crash, records nothing twice.
 *
 * Reminders (kind 'reminder'), to the company's chosen recipients and the permit's responsible
 * person, in the same daily digest: the company has the threshold switched on; the permit is open
 * (not archived, not N/A, not closed, not acknowledged for its term) and has an expiration date;
 * and the days left to its countdown date (the renew-by date when a lead time is set, else the
 * expiry) are at or below the threshold but above the next lower switched-on one, never below 0.
 * Consequences:
 * - a missed day is caught up once (the window spans every day down to the next threshold);
 * - a permit created 5 days before expiry gets only its 7-day reminder, not three at once;
 * - an already expired permit gets no "N days before" reminder (the overdue digest covers it);
 * - a changed date (renewal, extension, edit) is a new key, so it gets its own reminders.
 *
 * Escalation (kind 'escalation'), to the company admins, once per term: the countdown date is
 * within the company's Escalation Days (0 turns escalation off) and nobody renewed, extended,
 * acknowledged or closed it.
 *
 * Overdue (kind 'overdue'), to the company admins, one digest a day while the Overdue digest is on
 * and expired permits stay open (not renewed, closed, archived or N/A): one row per admin and day,
 * the permits listed when it is sent, each of them once.
 *
 * Document requests (issue 27, decision 0029):
 * - 'Renewal Pending': no reminder or escalation is recorded for a permit while a submission about
 *   it awaits review (at most RENEWAL_PENDING_DAYS after it came in). One recorded before and
 *   cancelled at send time for the pause is revived here (an UPDATE of the cancelled rows only)
 *   once it is due again, so the pause delays nothing that is still due after it.
 * - 'Overdue request' (kind 'overdue_request'): one row per recipient and day, like the overdue
 *   digest, for each company admin and each responsible person with an overdue request to hear of;
 *   the requests are listed when it is sent.
 * - The party's own reminders (request_deliveries, kind 'reminder'): reminders.party-sweep.ts, in
 *   the same transaction.
 *
 * Conditions' tasks (issue 29, kinds 'task_due', 'task_overdue', 'task_escalation', once per task,
 * kind and recipient): reminders.task-sweep.ts, in the same statement.
 */

/**
 * SELECT of the reminders due now: company_id, permit_id, threshold, expiration_date (the
 * countdown date), recipient_user_id, recipient_email, due_date, kind, term_no. Thresholds 30/7/1
 * map to the company's switches; no preferences row means all on (spec section 9).
 */
export function dueSelect(opts: SweepOptions): SQL {
  return sql`
    with ${companiesCte(opts)},
    win as (
      select co.company_id, co.today, t.threshold,
             coalesce(lead(t.threshold) over (partition by co.company_id order by t.threshold desc), -1) as lower_bound
      from co
      cross join lateral (values (30, co.e30), (7, co.e7), (1, co.e1)) as t(threshold, enabled)
      where t.enabled
    ),
    due as (
      select p.company_id, p.id, p.term_no, p.countdown_date, p.responsible_user_id, w.threshold, w.today
      from win w
      join permits p
        on p.company_id = w.company_id
       and p.countdown_date > w.today + w.lower_bound
       and p.countdown_date <= w.today + w.threshold
       and ${openPermit()} and ${unacknowledged()} and not ${renewalPending(sweepNow(opts))}
    ),
    recipients as (
      select d.company_id, d.id, d.term_no, d.countdown_date, d.threshold, d.today, un.user_id
      from due d join user_notifications un on un.company_id = d.company_id
      union
      select d.company_id, d.id, d.term_no, d.countdown_date, d.threshold, d.today, d.responsible_user_id
      from due d where d.responsible_user_id is not null
    )
    select r.company_id, r.id as permit_id, r.threshold, r.countdown_date as expiration_date,
           u.id as recipient_user_id, u.email as recipient_email, r.today as due_date,
           'reminder'::text as kind, r.term_no
    from recipients r
    join users u
      on u.id = r.user_id
     and ${activeMember("u", sql`r.company_id`)}
     and u.role in ${RECIPIENT_ROLES}`;
}

/** SELECT of the escalations due now (same columns); threshold holds the company's Escalation Days. */
export function escalationSelect(opts: SweepOptions): SQL {
  return sql`
    with ${companiesCte(opts)}
    select p.company_id, p.id as permit_id, co.escalation_days as threshold, p.countdown_date as expiration_date,
           u.id as recipient_user_id, u.email as recipient_email, co.today as due_date,
           'escalation'::text as kind, p.term_no
    from co
    join permits p
      on p.company_id = co.company_id
     and co.escalation_days > 0
     and p.countdown_date >= co.today
     and p.countdown_date <= co.today + co.escalation_days
     and ${openPermit()} and ${unacknowledged()} and not ${renewalPending(sweepNow(opts))}
    join users u on ${activeMember("u", sql`co.company_id`)} and u.role in ${ESCALATION_ROLES}`;
}

/**
 * SELECT of today's overdue digests (same columns): one per company admin of each company with the
 * Overdue digest on and at least one expired open permit; no permit (the digest lists them when it
 * is sent), threshold 0, the day in expiration_date.
 */
export function overdueSelect(opts: SweepOptions): SQL {
  return sql`
    with ${companiesCte(opts)}
    select co.company_id, null::uuid as permit_id, 0 as threshold, co.today as expiration_date,
           u.id as recipient_user_id, u.email as recipient_email, co.today as due_date,
           'overdue'::text as kind, 1 as term_no
    from co
    join users u on ${activeMember("u", sql`co.company_id`)} and u.role in ${ESCALATION_ROLES}
    where co.overdue_digest and ${hasOverduePermit(sql`co.company_id`, sql`co.today`)}`;
}

/**
 * SELECT of today's 'Overdue request' digests (same columns): one per active member of the company
 * who has an overdue request to hear of (an admin: every one of the company; another recipient
 * role: those of the permits they are responsible for). No permit, threshold 0, the day in
 * expiration_date, as the overdue digest.
 */
export function overdueRequestSelect(opts: SweepOptions): SQL {
  return sql`
    with ${companiesCte(opts)}
    select co.company_id, null::uuid as permit_id, 0 as threshold, co.today as expiration_date,
           u.id as recipient_user_id, u.email as recipient_email, co.today as due_date,
           'overdue_request'::text as kind, 1 as term_no
    from co
    join users u on ${activeMember("u", sql`co.company_id`)}
    where ${hasOverdueRequestFor(sql`co.company_id`, sql`co.today`)}`;
}

/** Sweeps run one at a time across processes (the key is arbitrary but fixed). */
const SWEEP_LOCK_KEY = 7_301_605_002;

const sweepNow = (opts: SweepOptions) => sql`${opts.now.toISOString()}::timestamptz`;

/**
 * Records every due reminder; returns how many new deliveries were recorded. Concurrent sweeps
 * are serialised, so a recipient's reminders of a day are recorded by one statement and a sender
 * never sees half of them.
 */
export async function sweepDueReminders(db: Db, opts: SweepOptions): Promise<number> {
  const columns = sql`(company_id, permit_id, threshold, expiration_date, recipient_user_id, recipient_email, due_date, kind, term_no, next_attempt_at)`;
  const now = sweepNow(opts);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SWEEP_LOCK_KEY})`);
    await tx.execute(sql`set local jit = off`);
    const [row] = await queryRows<{ n: number }>(
      tx,
      sql`with due_reminders as (select * from (${dueSelect(opts)}) d),
          due_escalations as (select * from (${escalationSelect(opts)}) e),
          -- A reminder or escalation cancelled for 'Renewal Pending' (never sent) that is due again
          -- is revived. An UPDATE of those rows alone, not ON CONFLICT DO UPDATE: that would lock
          -- every conflicting row, pending ones too, and a sender's SKIP LOCKED claim would then
          -- take a recipient's day in two parts (two e-mails).
          revived as (
            update reminder_deliveries r
            set status = 'pending', threshold = x.threshold, expiration_date = x.expiration_date,
                recipient_email = x.recipient_email, due_date = x.due_date, next_attempt_at = ${now},
                claimed_at = null, last_error = null
            from (select * from due_reminders union all select * from due_escalations) x
            where r.status = 'cancelled' and r.last_error = ${RENEWAL_PENDING_REASON}
              and r.kind = x.kind and r.permit_id = x.permit_id and r.recipient_user_id = x.recipient_user_id
              and case x.kind when 'reminder' then r.threshold = x.threshold and r.expiration_date = x.expiration_date
                              else r.term_no = x.term_no end
            returning 1
          ),
          reminders as (
            insert into reminder_deliveries ${columns}
            select d.*, ${now} from due_reminders d
            on conflict (permit_id, threshold, expiration_date, recipient_user_id) where kind = 'reminder' do nothing
            returning 1
          ),
          escalations as (
            insert into reminder_deliveries ${columns}
            select d.*, ${now} from due_escalations d
            on conflict (permit_id, term_no, recipient_user_id) where kind = 'escalation' do nothing
            returning 1
          ),
          overdue as (
            insert into reminder_deliveries ${columns}
            select d.*, ${now} from (${overdueSelect(opts)}) d
            on conflict (recipient_user_id, due_date) where kind = 'overdue' do nothing
            returning 1
          ),
          overdue_requests as (
            insert into reminder_deliveries ${columns}
            select d.*, ${now} from (${overdueRequestSelect(opts)}) d
            on conflict (recipient_user_id, due_date) where kind = 'overdue_request' do nothing
            returning 1
          ),
          party as (
            insert into request_deliveries (company_id, request_id, kind, threshold, due_date, recipient_email, next_attempt_at)
            select d.*, ${now} from (${partyReminderSelect(opts)}) d
            on conflict (request_id, threshold, due_date) where kind = 'reminder' do nothing
            returning 1
          ),
          ${taskSweepCtes(opts, now)}
          select ((select count(*) from revived) + (select count(*) from reminders) + (select count(*) from escalations)
                  + (select count(*) from overdue) + (select count(*) from overdue_requests)
                  + (select count(*) from party) + ${taskCounts})::int as n`,
    );
    return row?.n ?? 0;
  });
}
