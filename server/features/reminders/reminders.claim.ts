import { sql } from "drizzle-orm";
import { queryRows, type Db } from "../../db/client.ts";
import {
  ESCALATION_ROLES,
  RECIPIENT_ROLES,
  RENEWAL_PENDING_REASON,
  activeMember,
  hasOverduePermit,
  hasOverdueRequestFor,
  overdueDigestOn,
  permitNotOpen,
  renewalPending,
  thresholdOn,
  unacknowledged,
} from "./reminders.eligibility.ts";
import { TASK_MOVED_REASON, taskOwner } from "./reminders.task-sweep.ts";
import { DEFAULT_ESCALATION_DAYS } from "../../../shared/domain/lifecycle.ts";
import { TASK_DIGEST_DAYS } from "../../../shared/domain/conditions.ts";

/** Step 1 of sending (reminders.sender.ts): claiming due rows, and cancelling those no longer due. */

export const CLAIM_LEASE_MS = 10 * 60_000;
/** Claims run one at a time across every process (short transactions; the key is arbitrary but fixed). */
const CLAIM_LOCK_KEY = 7_301_605_001;
/**
 * Groups claimed per round. A round's digests are sent in parallel, so a round lasts about one
 * SMTP exchange: far inside the lease even when every send runs into its timeouts.
 */
const GROUPS_PER_ROUND = 16;

const claimable = (now: Date, alias = "r") => {
  const r = sql.raw(alias);
  return sql`((${r}.status = 'pending' and ${r}.next_attempt_at <= ${now.toISOString()}::timestamptz)
     or (${r}.status = 'sending' and ${r}.claimed_at < ${new Date(now.getTime() - CLAIM_LEASE_MS).toISOString()}::timestamptz))`;
};

export interface ClaimedRow {
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
    const at = sql`${now.toISOString()}::timestamptz`;
    const cancelled = await queryRows<{ id: string }>(
      tx,
      sql`update reminder_deliveries d
          set status = 'cancelled', last_error = x.reason, claimed_at = null, attempts = d.attempts - 1
          from (
            select r.id,
              case
                ${sql.join(
                  permitNotOpen("p").map(([condition, reason]) => sql`when ${condition} then ${reason}`),
                  sql` `,
                )}
                -- A condition's task (issue 29): done or N/A, its condition removed, or no longer due.
                when t.status = 'done' then 'Task completed'
                when t.status = 'not_applicable' then 'Task not applicable'
                when c.removed_at is not null then 'Condition removed'
                when r.kind = 'task_due' and t.due_at < ${at} then 'Overdue now'
                when r.kind = 'task_due' and t.due_on > r.due_date + ${TASK_DIGEST_DAYS}::int then ${TASK_MOVED_REASON}
                when r.kind = 'task_escalation' and coalesce(cp.escalation_days, ${DEFAULT_ESCALATION_DAYS}) = 0
                  then 'Escalation switched off'
                when r.kind = 'task_overdue' and t.due_at >= ${at} then ${TASK_MOVED_REASON}
                when r.kind = 'task_escalation'
                     and t.due_at > ${at} - make_interval(days => coalesce(cp.escalation_days, ${DEFAULT_ESCALATION_DAYS}))
                  then ${TASK_MOVED_REASON}
                when r.task_id is null and p.term_no <> r.term_no then 'Permit renewed'
                when r.kind in ('reminder', 'escalation') and not ${unacknowledged()} then 'Acknowledged'
                when r.kind in ('reminder', 'escalation') and p.countdown_date is distinct from r.expiration_date then 'Expiration date changed'
                when r.kind = 'reminder' and not ${thresholdOn(sql`r.threshold`)} then 'Reminder switched off'
                when r.kind = 'overdue' and not ${overdueDigestOn()} then 'Overdue digest switched off'
                when r.kind = 'overdue' and not ${hasOverduePermit(sql`r.company_id`, sql`r.due_date`)}
                  then 'Nothing overdue any more'
                when not coalesce(${activeMember("u", sql`r.company_id`)}, false) then 'Recipient removed'
                when r.kind = 'overdue_request' and not ${hasOverdueRequestFor(sql`r.company_id`, sql`r.due_date`)}
                  then 'Nothing overdue any more'
                when r.kind = 'reminder' and (u.role not in ${RECIPIENT_ROLES}
                     or (un.user_id is null and p.responsible_user_id is distinct from r.recipient_user_id)) then 'Recipient removed'
                when r.kind in ('task_due', 'task_overdue') and u.role not in ${RECIPIENT_ROLES} then 'Recipient removed'
                when r.kind in ('task_due', 'task_overdue') and ${taskOwner()} is distinct from r.recipient_user_id
                  then 'Owner changed'
                when r.kind in ('escalation', 'overdue', 'task_escalation') and u.role not in ${ESCALATION_ROLES}
                  then 'Recipient removed'
                -- Last: a permanent reason above wins; this one the sweep revives once it is over.
                when r.kind in ('reminder', 'escalation') and ${renewalPending(sql`${now.toISOString()}::timestamptz`)}
                  then ${RENEWAL_PENDING_REASON}
              end as reason
            from reminder_deliveries r
            -- An overdue or overdue-request digest names no permit (it lists them when sent): p is null there.
            left join permits p on p.id = r.permit_id
            left join condition_tasks t on t.id = r.task_id
            left join permit_conditions c on c.id = t.condition_id
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
