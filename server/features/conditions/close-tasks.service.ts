import { sql } from "drizzle-orm";
import { PERMIT_CLOSED_REASON } from "../../../shared/domain/conditions.ts";
import type { Actor } from "../../access/actor.ts";
import { recordPermitAudit, type AuditActor } from "../../audit/audit-writer.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { taskAuditText } from "./condition-values.ts";

/** How many open tasks a permit has (closing it asks first: 409 OPEN_TASKS). */
export async function countOpenTasks(db: Db, permitId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from condition_tasks where permit_id = ${permitId} and status = 'open'`,
  );
  return row?.n ?? 0;
}

/**
 * Marks a permit's open tasks (all, or those of one condition) Not Applicable with `reason`, in the
 * caller's transaction, with an audit entry per task: the permit's close (PERMIT_CLOSED_REASON) and
 * a removed condition (CONDITION_REMOVED_REASON). One statement for the tasks, one for the audit.
 * Returns how many it closed.
 */
export async function closeOpenTasks(
  tx: Db,
  permit: { id: string; companyId: string },
  reason: string = PERMIT_CLOSED_REASON,
  actor: Actor | AuditActor,
  opts: { conditionId?: string } = {},
): Promise<number> {
  const closed = await queryRows<{ title: string; due_on: string }>(
    tx,
    sql`
    with closed as (
      update condition_tasks t
      set status = 'not_applicable', reason = ${reason}, completed_at = now(),
          completed_by = ${actor.userId}::uuid, completed_by_name = ${actor.name}
      where t.permit_id = ${permit.id} and t.status = 'open'
        ${opts.conditionId ? sql`and t.condition_id = ${opts.conditionId}` : sql``}
      returning t.condition_id, t.due_on
    )
    select c.title, closed.due_on::text as due_on
    from closed join permit_conditions c on c.id = closed.condition_id
    order by closed.due_on, c.title`,
  );
  await recordPermitAudit(
    tx,
    actor,
    permit,
    closed.map((t) => ({
      action: "task_not_applicable",
      field: "task",
      oldValue: taskAuditText(t.title, t.due_on),
      newValue: reason,
    })),
  );
  return closed.length;
}
