import { sql } from "drizzle-orm";
import { queryRows, type Db } from "../../db/client.ts";
import type { DeliveryKind } from "../../../shared/schemas/reminders.ts";
import { ESCALATION_ROLES, openPermit, overdueRequest, renewalPending } from "./reminders.eligibility.ts";
import {
  dueSelect,
  escalationSelect,
  overdueRequestSelect,
  overdueSelect,
  type SweepOptions,
} from "./reminders.sweep.ts";
import { taskDeliveriesSelect } from "./reminders.task-sweep.ts";

export interface DueItem {
  kind: DeliveryKind;
  companyName: string;
  recipientEmail: string;
  dueDate: string;
  /** Days before (a reminder), the company's Escalation Days (an escalation), 0 (overdue). */
  threshold: number;
  permitId: string;
  permitName: string;
  permitNumber: string;
  /** The date counted down to (renew-by or expiry); an overdue line's expiry; an overdue request's due date. */
  expirationDate: string;
  /** Negative for an overdue permit. */
  daysLeft: number;
  /** A task line's condition title (issue 29; expirationDate is then the task's due date); else null. */
  taskTitle: string | null;
}

/**
 * What the next send would carry, written nowhere (`npm run reminders -- --dry-run`): everything
 * the sweep would record now (reminders, escalations, overdue digests, from the sweep's own
 * selects) plus what is recorded and waiting to be sent, one line per permit; an overdue digest is
 * listed as the permits it would name when sent, an 'Overdue request' digest as its requests'
 * permits. A permit in 'Renewal Pending' (issue 27) has no reminder or escalation here, waiting or not.
 * Conditions' tasks (issue 29) are listed a line per task delivery, with the condition's title.
 */
export async function previewDueReminders(db: Db, opts: SweepOptions): Promise<DueItem[]> {
  return queryRows<DueItem>(
    db,
    sql`with fresh as (
          select a.*, null::uuid as task_id from (${dueSelect(opts)}) a
          union all select b.*, null::uuid from (${escalationSelect(opts)}) b
          union all select c.*, null::uuid from (${overdueSelect(opts)}) c
          union all select d.*, null::uuid from (${overdueRequestSelect(opts)}) d
          union all select * from (${taskDeliveriesSelect(opts)}) e
        ),
        due as (
          select f.kind, f.company_id, f.permit_id, f.threshold, f.expiration_date, f.recipient_user_id,
                 f.recipient_email, f.due_date, f.task_id
          from fresh f
          -- what the sweep's unique keys would refuse is already recorded (and listed below if unsent)
          where not exists (
            select 1 from reminder_deliveries r
            where r.kind = f.kind and r.recipient_user_id = f.recipient_user_id
              and case f.kind
                    when 'reminder' then r.permit_id = f.permit_id and r.threshold = f.threshold
                                         and r.expiration_date = f.expiration_date
                    when 'escalation' then r.permit_id = f.permit_id and r.term_no = f.term_no
                    when 'task_due' then r.task_id = f.task_id
                    when 'task_overdue' then r.task_id = f.task_id
                    when 'task_escalation' then r.task_id = f.task_id
                    else r.due_date = f.due_date
                  end)
          union all
          select r.kind, r.company_id, r.permit_id, r.threshold, r.expiration_date, r.recipient_user_id,
                 r.recipient_email, r.due_date, r.task_id
          from reminder_deliveries r
          where r.status in ('pending', 'sending')
        ),
        items as (
          select due.kind, due.company_id, due.recipient_email, due.due_date, due.threshold,
                 p.id as permit_id, p.permit_name, p.permit_number, due.expiration_date as shown_date,
                 null::text as task_title
          from due join permits p on p.id = due.permit_id
          -- a waiting one is cancelled at send time while paused
          where due.task_id is null and not ${renewalPending(sql`${opts.now.toISOString()}::timestamptz`)}
          union all
          select due.kind, due.company_id, due.recipient_email, due.due_date, due.threshold,
                 p.id, p.permit_name, p.permit_number, t.due_on, c.title
          from due
          join condition_tasks t on t.id = due.task_id and t.status = 'open'
          join permit_conditions c on c.id = t.condition_id and c.removed_at is null
          join permits p on p.id = t.permit_id and ${openPermit()}
          union all
          select due.kind, due.company_id, due.recipient_email, due.due_date, due.threshold,
                 p.id, p.permit_name, p.permit_number, p.expiration_date, null
          from due
          join permits p
            on due.kind = 'overdue' and p.company_id = due.company_id
           and p.expiration_date < due.due_date and ${openPermit()}
          union all
          select due.kind, due.company_id, due.recipient_email, due.due_date, due.threshold,
                 p.id, p.permit_name, p.permit_number, dr.due_date, null
          from due
          join users u on u.id = due.recipient_user_id
          join document_requests dr
            on due.kind = 'overdue_request' and dr.company_id = due.company_id and ${overdueRequest(sql`due.due_date`)}
          join permits p
            on p.id = dr.permit_id and not p.archived
           and (u.role in ${ESCALATION_ROLES} or p.responsible_user_id = u.id)
        )
        select i.kind, c.name as "companyName", i.recipient_email as "recipientEmail", i.due_date::text as "dueDate",
               i.threshold, i.permit_id as "permitId", i.permit_name as "permitName",
               i.permit_number as "permitNumber", i.shown_date::text as "expirationDate",
               (i.shown_date - i.due_date)::int as "daysLeft", i.task_title as "taskTitle"
        from items i
        join companies c on c.id = i.company_id
        order by c.name, i.recipient_email, i.due_date,
                 case i.kind when 'reminder' then 0 when 'escalation' then 1 when 'overdue' then 2
                             when 'overdue_request' then 3 when 'task_overdue' then 4 when 'task_due' then 5 else 6 end,
                 i.threshold desc, i.shown_date, i.permit_name`,
  );
}
