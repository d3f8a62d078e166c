import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { firstTask } from "../../../shared/domain/condition-schedule.ts";
import type { Actor } from "../../access/actor.ts";
import { recordPermitAuditMany, type AuditActor, type PermitAuditEntry } from "../../audit/audit-writer.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { storedEventKind } from "./condition-input.ts";
import { conditionAuditText, specOf, taskAuditText, type NewCondition } from "./condition-values.ts";

export interface AddConditionsInput {
  /** The company of every permit named (a permit of another company is skipped: nothing is written for it). */
  companyId: string;
  /** The company's time zone (companies.time_zone). */
  timeZone: string;
  /** Today in that zone: an 'every' condition's first task is its first occurrence on or after it. */
  today: string;
  conditions: NewCondition[];
}

export interface AddedCondition {
  id: string;
  permitId: string;
  title: string;
  /** Its first task (null: after_event, or an 'every' already past its end). */
  taskId: string | null;
}

/**
 * Adds conditions to permits with their first tasks and the audit entries, in the caller's
 * transaction, in two statements whatever the count (the conditions and tasks in one data-modifying
 * WITH, the rows travelling as one JSON parameter; the audit in one more). An owner left null is the
 * permit's responsible person, stored. The caller checks what needs the database (that an owner is
 * active staff of the company, that the permits may take conditions).
 */
export async function addConditions(
  tx: Db,
  actor: Actor | AuditActor,
  input: AddConditionsInput,
): Promise<AddedCondition[]> {
  if (!input.conditions.length) return [];
  const rows = input.conditions.map((c) => {
    const task = firstTask(specOf(c), input.timeZone, input.today);
    return {
      id: randomUUID(),
      task_id: task ? randomUUID() : null,
      permit_id: c.permitId,
      title: c.title,
      description: c.description,
      owner_user_id: c.ownerUserId,
      evidence: c.evidence,
      schedule: c.schedule,
      due_date: c.dueDate,
      every_interval: c.interval,
      every_unit: c.unit,
      starts_on: c.startsOn,
      ends_on: c.endsOn,
      offset_amount: c.offsetAmount,
      offset_unit: c.offsetUnit,
      milestone_name: c.milestoneName,
      milestone_at: c.milestoneAt,
      event_kind: storedEventKind(c.eventKind),
      occurrence: task?.occurrence ?? null,
      due_at: task?.dueAt ?? null,
      due_on: task?.dueOn ?? null,
      timed: task?.timed ?? false,
    };
  });
  const added = await queryRows<{ id: string; permit_id: string; title: string; task_id: string | null }>(
    tx,
    sql`
    with input as (
      select r.*, row_number() over () as ord
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(
        id uuid, task_id uuid, permit_id uuid, title text, description text, owner_user_id uuid,
        evidence text, schedule text, due_date date, every_interval int, every_unit text, starts_on date,
        ends_on date, offset_amount int, offset_unit text, milestone_name text, milestone_at timestamptz,
        event_kind text, occurrence int, due_at timestamptz, due_on date, timed boolean)
    ),
    conditions as (
      insert into permit_conditions (id, company_id, permit_id, title, description, owner_user_id, evidence,
        schedule, due_date, every_interval, every_unit, starts_on, ends_on, offset_amount, offset_unit,
        milestone_name, milestone_at, event_kind, created_by)
      select i.id, p.company_id, i.permit_id, i.title, i.description, coalesce(i.owner_user_id, p.responsible_user_id),
        i.evidence, i.schedule, i.due_date, i.every_interval, i.every_unit, i.starts_on, i.ends_on,
        i.offset_amount, i.offset_unit, i.milestone_name, i.milestone_at, i.event_kind, ${actor.userId}::uuid
      from input i join permits p on p.id = i.permit_id and p.company_id = ${input.companyId}
      order by i.ord
      returning id, permit_id, title
    ),
    tasks as (
      insert into condition_tasks (id, company_id, permit_id, condition_id, occurrence, due_at, due_on, timed)
      select i.task_id, ${input.companyId}, i.permit_id, i.id, i.occurrence, i.due_at, i.due_on, i.timed
      from input i join conditions c on c.id = i.id
      where i.task_id is not null
      returning id
    )
    select c.id, c.permit_id, c.title, i.task_id from conditions c join input i on i.id = c.id order by i.ord`,
  );
  const byId = new Map<string, { row: (typeof rows)[number]; condition: NewCondition }>(
    rows.map((r, n) => [r.id, { row: r, condition: input.conditions[n]! }]),
  );
  const entries = new Map<string, PermitAuditEntry[]>();
  for (const a of added) {
    const { row, condition } = byId.get(a.id)!;
    const list = entries.get(a.permit_id) ?? [];
    list.push({
      action: "condition_added",
      field: "condition",
      newValue: conditionAuditText(condition.title, specOf(condition)),
    });
    if (row.due_on)
      list.push({
        action: "task_created",
        field: "task",
        newValue: taskAuditText(condition.title, row.due_on),
      });
    entries.set(a.permit_id, list);
  }
  await recordPermitAuditMany(
    tx,
    actor,
    [...entries].map(([permitId, list]) => ({
      permit: { id: permitId, companyId: input.companyId },
      entries: list,
    })),
  );
  return added.map((a) => ({ id: a.id, permitId: a.permit_id, title: a.title, taskId: a.task_id }));
}
