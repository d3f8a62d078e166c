import { sql, type SQL } from "drizzle-orm";
import { TASK_DIGEST_DAYS } from "../../../shared/domain/conditions.ts";
import { companiesCte, type SweepOptions } from "./reminders.day.ts";
import { ESCALATION_ROLES, RECIPIENT_ROLES, activeMember, openPermit } from "./reminders.eligibility.ts";

/**
 * The conditions' tasks in the reminder sweep (issue 29): set-based selects of the task deliveries
 * due now, recorded by reminders.sweep.ts in its statement under the unique key (task, kind,
 * recipient), so each is recorded once however often the sweep runs.
 *
 * - task_due, to the task's owner (the condition's owner, else the permit's responsible person; an
 *   active staff member of the company), once per task: the open task is due within
 *   TASK_DIGEST_DAYS days of the company's today and not overdue yet;
 * - task_overdue, to the owner, once: the open task is overdue (due_at before now);
 * - task_escalation, to each company admin, once per task: the task has been overdue for the
 *   company's Escalation Days (0 turns it off).
 * Only tasks of open permits (openPermit) and of live conditions (not removed).
 *
 * Columns as the permits' selects (threshold: days to the due date for task_due, 0 for task_overdue,
 * the Escalation Days for task_escalation; expiration_date: the task's due_on) and task_id.
 * Each reads the open tasks off condition_tasks_open_due_idx (company_id, due_on) where status =
 * 'open', by a due_on range implied by the due_at test (a dated task's due_at is the end of its
 * due_on; a timed task's due_on is the local date of its due_at).
 */

/** The sweep's clock as SQL. */
const nowSql = (opts: SweepOptions) => sql`${opts.now.toISOString()}::timestamptz`;

/**
 * The open tasks that may be due for a delivery, read once for all three kinds: per company, a range
 * of condition_tasks_open_due_idx (company_id, due_on) where status = 'open' up to today +
 * TASK_DIGEST_DAYS (overdue ones included), then each task's condition and permit by their keys.
 * Every lateral subquery is kept apart by `offset 0`: the bounds are each company's own (its zone),
 * and a join would let the planner read the whole task, condition or permit table instead (it did:
 * 20 s of a 1,000,000-permit sweep). Materialized, so the three kinds read it once.
 */
const taskRowsCte = () => sql`
    tr as materialized (
      select co.company_id, co.today, co.escalation_days, t.id as task_id, t.permit_id, t.due_on, t.due_at,
             ${taskOwner()} as owner_id, p.term_no
      from co
      cross join lateral (
        select t.id, t.permit_id, t.condition_id, t.due_on, t.due_at from condition_tasks t
        where t.company_id = co.company_id and t.status = 'open'
          and t.due_on <= co.today + ${TASK_DIGEST_DAYS}::int
        offset 0
      ) t
      cross join lateral (
        select c.owner_user_id from permit_conditions c
        where c.id = t.condition_id and c.removed_at is null
        offset 0
      ) c
      cross join lateral (
        select p.responsible_user_id, p.term_no from permits p
        where p.id = t.permit_id and ${openPermit()}
        offset 0
      ) p
    )`;

/** The owner of a task: its condition's, else the permit's responsible person at the time. */
export const taskOwner = (c = "c", p = "p") =>
  sql`coalesce(${sql.raw(c)}.owner_user_id, ${sql.raw(p)}.responsible_user_id)`;

const columns = (threshold: SQL, kind: string) => sql`
    tr.company_id, tr.permit_id, ${threshold} as threshold, tr.due_on as expiration_date,
    u.id as recipient_user_id, u.email as recipient_email, tr.today as due_date,
    ${kind}::text as kind, tr.term_no, tr.task_id`;

/**
 * Every task delivery due now, in one statement (its columns as the permits' selects, and task_id):
 * - task_due: due within TASK_DIGEST_DAYS of today and not overdue, to the owner (threshold: days
 *   to the due date);
 * - task_overdue: overdue (due_at before now), to the owner (threshold 0);
 * - task_escalation: overdue for the company's Escalation Days (when on), to each company admin
 *   (threshold: the Escalation Days).
 */
export function taskDeliveriesSelect(opts: SweepOptions): SQL {
  const now = nowSql(opts);
  const owner = sql`join users u on u.id = tr.owner_id and ${activeMember("u", sql`tr.company_id`)} and u.role in ${RECIPIENT_ROLES}`;
  return sql`
    with ${companiesCte(opts)}, ${taskRowsCte()}
    select ${columns(sql`(tr.due_on - tr.today)::int`, "task_due")}
    from tr ${owner}
    where tr.due_at >= ${now}
    union all
    select ${columns(sql`0`, "task_overdue")}
    from tr ${owner}
    where tr.due_at < ${now}
    union all
    select ${columns(sql`tr.escalation_days`, "task_escalation")}
    from tr join users u on ${activeMember("u", sql`tr.company_id`)} and u.role in ${ESCALATION_ROLES}
    where tr.escalation_days > 0 and tr.due_at <= ${now} - make_interval(days => tr.escalation_days)`;
}

/** Why a recorded task_due that is cancelled may be recorded again: its task moved out of the window and back. */
export const TASK_MOVED_REASON = "Due date changed";

/**
 * The task deliveries' CTEs of the sweep's statement (after `with`, before its final select): the
 * due ones recorded, a task_due cancelled because its task moved away revived once due again.
 * Each CTE returns 1 per row; `taskCounts` sums them.
 */
export function taskSweepCtes(opts: SweepOptions, now: SQL): SQL {
  const cols = sql`(company_id, permit_id, threshold, expiration_date, recipient_user_id, recipient_email, due_date, kind, term_no, task_id, next_attempt_at)`;
  return sql`
    due_tasks as (
      select * from (${taskDeliveriesSelect(opts)}) a
    ),
    tasks_revived as (
      update reminder_deliveries r
      set status = 'pending', threshold = x.threshold, expiration_date = x.expiration_date,
          recipient_email = x.recipient_email, due_date = x.due_date, next_attempt_at = ${now},
          claimed_at = null, last_error = null
      from due_tasks x
      where r.status = 'cancelled' and r.last_error = ${TASK_MOVED_REASON}
        and r.task_id = x.task_id and r.kind = x.kind and r.recipient_user_id = x.recipient_user_id
      returning 1
    ),
    tasks as (
      insert into reminder_deliveries ${cols}
      select d.*, ${now} from due_tasks d
      on conflict (task_id, kind, recipient_user_id) where task_id is not null do nothing
      returning 1
    )`;
}

export const taskCounts = sql`(select count(*) from tasks_revived) + (select count(*) from tasks)`;
