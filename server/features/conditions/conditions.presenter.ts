import { describeSchedule, instantToLocalDateTime } from "../../../shared/domain/condition-schedule.ts";
import type { Condition, Task } from "../../../shared/schemas/conditions.ts";
import type { Actor } from "../../access/actor.ts";
import { canSeeTaskDetails } from "../../access/policies/condition.ts";
import type { CardCondition, CardTask, ConditionRow, TaskRow } from "./conditions.repository.ts";
import { specOfRow } from "./condition-values.ts";

// Conditions and tasks as the API answers them. A client-user reads a task's status, due date and
// who completed it, never its note or evidence (canSeeTaskDetails).

const iso = (v: string | Date | null): string | null =>
  v === null ? null : (v instanceof Date ? v : new Date(v)).toISOString();

/** A task row of the card's JSON column (snake_case, timestamps as PostgreSQL wrote them). */
export function presentCardTask(actor: Actor, t: CardTask): Task {
  const details = canSeeTaskDetails(actor);
  return {
    id: t.id,
    conditionId: t.condition_id,
    permitId: t.permit_id,
    occurrence: t.occurrence,
    event:
      t.event_id && t.event_kind && t.event_occurred_at
        ? { id: t.event_id, kind: t.event_kind, occurredAt: iso(t.event_occurred_at)! }
        : null,
    dueAt: iso(t.due_at)!,
    dueOn: t.due_on,
    timed: t.timed,
    status: t.status as Task["status"],
    overdue: t.overdue,
    completedByName: t.completed_by_name,
    completedAt: iso(t.completed_at),
    note: details ? t.note : null,
    reason: t.reason,
    evidence:
      details && t.evidence_name !== null
        ? {
            name: t.evidence_name,
            contentType: t.evidence_content_type ?? "application/octet-stream",
            size: t.evidence_size ?? 0,
          }
        : null,
  };
}

/** A task as drizzle reads it (the writes' answers), with its event when it answers one. */
export function presentTask(
  actor: Actor,
  t: TaskRow,
  event: { id: string; kind: string; occurredAt: Date } | null = null,
): Task {
  return presentCardTask(actor, {
    id: t.id,
    condition_id: t.conditionId,
    permit_id: t.permitId,
    occurrence: t.occurrence,
    event_id: event?.id ?? null,
    event_kind: event?.kind ?? null,
    event_occurred_at: event ? event.occurredAt.toISOString() : null,
    due_at: t.dueAt.toISOString(),
    due_on: t.dueOn,
    timed: t.timed,
    status: t.status,
    overdue: t.status === "open" && t.dueAt.getTime() < Date.now(),
    completed_by_name: t.completedByName,
    completed_at: t.completedAt ? t.completedAt.toISOString() : null,
    note: t.note,
    reason: t.reason,
    evidence_name: t.evidenceName,
    evidence_content_type: t.evidenceContentType,
    evidence_size: t.evidenceSize,
  });
}

/** A condition of the card's JSON column. */
export function presentCardCondition(actor: Actor, c: CardCondition, timeZone: string): Condition {
  const spec = specOfRow({
    schedule: c.schedule,
    dueDate: c.due_date,
    everyInterval: c.every_interval,
    everyUnit: c.every_unit,
    startsOn: c.starts_on,
    endsOn: c.ends_on,
    offsetAmount: c.offset_amount,
    offsetUnit: c.offset_unit,
    milestoneName: c.milestone_name,
    milestoneAt: c.milestone_at,
    eventKind: c.event_kind,
  });
  return {
    id: c.id,
    permitId: c.permit_id,
    title: c.title,
    description: c.description,
    owner: c.owner_id ? { id: c.owner_id, name: c.owner_name ?? "Former user" } : null,
    evidence: c.evidence as Condition["evidence"],
    schedule: spec.schedule,
    dueDate: spec.dueDate,
    interval: spec.interval,
    unit: spec.unit,
    startsOn: spec.startsOn,
    endsOn: spec.endsOn,
    offsetAmount: spec.offsetAmount,
    offsetUnit: spec.offsetUnit,
    milestoneName: spec.milestoneName,
    milestoneAt: spec.milestoneAt ? instantToLocalDateTime(spec.milestoneAt, timeZone) : null,
    eventKind: spec.eventKind,
    scheduleText: describeSchedule(spec, timeZone),
    tasks: c.tasks.map((t) => presentCardTask(actor, t)),
    closedTaskCount: c.closed_task_count,
  };
}

/** A condition row (a write's answer) with its tasks as the card would list them. */
export function presentCondition(
  actor: Actor,
  c: ConditionRow,
  owner: { id: string; name: string } | null,
  tasks: CardTask[],
  closedTaskCount: number,
  timeZone: string,
): Condition {
  return presentCardCondition(
    actor,
    {
      id: c.id,
      permit_id: c.permitId,
      title: c.title,
      description: c.description,
      owner_id: owner?.id ?? null,
      owner_name: owner?.name ?? null,
      evidence: c.evidence,
      schedule: c.schedule,
      due_date: c.dueDate,
      every_interval: c.everyInterval,
      every_unit: c.everyUnit,
      starts_on: c.startsOn,
      ends_on: c.endsOn,
      offset_amount: c.offsetAmount,
      offset_unit: c.offsetUnit,
      milestone_name: c.milestoneName,
      milestone_at: iso(c.milestoneAt),
      event_kind: c.eventKind,
      tasks,
      closed_task_count: closedTaskCount,
    },
    timeZone,
  );
}
