import { and, eq, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { CONDITION_REMOVED_REASON, EVIDENCE_LABELS } from "../../../shared/domain/conditions.ts";
import { firstTask } from "../../../shared/domain/condition-schedule.ts";
import { addDays, todayIn } from "../../../shared/domain/dates.ts";
import type { ConditionInput } from "../../../shared/schemas/conditions.ts";
import type { Actor } from "../../access/actor.ts";
import { recordPermitAudit, type PermitAuditEntry } from "../../audit/audit-writer.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { conditionTasks, permitConditions } from "../../db/schema.ts";
import { addConditions } from "./add-conditions.service.ts";
import { closeOpenTasks } from "./close-tasks.service.ts";
import { checkOwner, newConditionOf } from "./condition-input.ts";
import {
  conditionAuditText,
  specOf,
  specOfRow,
  taskAuditText,
  type NewCondition,
} from "./condition-values.ts";
import type { ConditionRow, PermitFacts } from "./conditions.repository.ts";

// 'Add Condition', its edit and its removal (the routes have loaded the permit scoped and locked,
// and the policy allowed). Each runs in the route's transaction with its audit entries.

/** Adds one condition and its first task; returns its id. */
export async function createCondition(
  tx: Db,
  actor: Actor,
  permit: PermitFacts,
  input: ConditionInput,
): Promise<string> {
  const values = newConditionOf(input, permit.permitId, permit.timeZone);
  await checkOwner(tx, permit.companyId, values.ownerUserId);
  const [added] = await addConditions(tx, actor, {
    companyId: permit.companyId,
    timeZone: permit.timeZone,
    today: todayIn(permit.timeZone),
    conditions: [values],
  });
  return added!.id;
}

const SCHEDULE_FIELDS = [
  "schedule",
  "dueDate",
  "interval",
  "unit",
  "startsOn",
  "endsOn",
  "offsetAmount",
  "offsetUnit",
  "milestoneAt",
] as const;

async function userName(tx: Db, id: string | null): Promise<string | null> {
  if (!id) return null;
  const [row] = await queryRows<{ name: string }>(tx, sql`select name from users where id = ${id}`);
  return row?.name ?? null;
}

/**
 * Saves the edit. When the schedule changed, the open task of a dated or milestone schedule moves to
 * the new schedule's first one (an 'every' counting from the day after its last closed task, never
 * before today), or is removed when the new one has none; a condition without an open task gets one
 * when its kind changed or it repeats. Tasks an event made stay as they are. The closed tasks keep
 * their record; their occurrence numbers, of the old schedule, are cleared so the new count starts clean.
 */
export async function updateCondition(
  tx: Db,
  actor: Actor,
  found: { condition: ConditionRow; permit: PermitFacts },
  input: ConditionInput,
): Promise<void> {
  const { condition: old, permit } = found;
  const next: NewCondition = newConditionOf(input, permit.permitId, permit.timeZone);
  // An owner left empty stays the permit's responsible person (resolved now, as on add).
  const ownerUserId = next.ownerUserId ?? permit.responsibleUserId;
  if (next.ownerUserId && next.ownerUserId !== old.ownerUserId)
    await checkOwner(tx, permit.companyId, next.ownerUserId);
  const oldSpec = specOfRow(old);
  const newSpec = specOf(next);
  const scheduleChanged = SCHEDULE_FIELDS.some((f) => (oldSpec[f] ?? null) !== (newSpec[f] ?? null));

  await tx
    .update(permitConditions)
    .set({
      title: next.title,
      description: next.description,
      ownerUserId,
      evidence: next.evidence,
      schedule: next.schedule,
      dueDate: next.dueDate,
      everyInterval: next.interval,
      everyUnit: next.unit,
      startsOn: next.startsOn,
      endsOn: next.endsOn,
      offsetAmount: next.offsetAmount,
      offsetUnit: next.offsetUnit,
      milestoneName: next.milestoneName,
      milestoneAt: next.milestoneAt ? new Date(next.milestoneAt) : null,
      eventKind: next.eventKind,
      updatedAt: new Date(),
    })
    .where(eq(permitConditions.id, old.id));

  const entries: PermitAuditEntry[] = [];
  const oldText = conditionAuditText(old.title, oldSpec);
  const newText = conditionAuditText(next.title, newSpec);
  if (oldText !== newText || oldSpec.milestoneName !== newSpec.milestoneName)
    entries.push({ action: "condition_edited", field: "condition", oldValue: oldText, newValue: newText });
  if ((old.description ?? null) !== next.description)
    entries.push({
      action: "condition_edited",
      field: "condition_description",
      oldValue: old.description,
      newValue: next.description,
    });
  if (old.evidence !== next.evidence)
    entries.push({
      action: "condition_edited",
      field: "condition_evidence",
      oldValue: EVIDENCE_LABELS[old.evidence as keyof typeof EVIDENCE_LABELS] ?? old.evidence,
      newValue: EVIDENCE_LABELS[next.evidence],
    });
  if (old.ownerUserId !== ownerUserId)
    entries.push({
      action: "condition_edited",
      field: "condition_owner",
      oldValue: await userName(tx, old.ownerUserId),
      newValue: await userName(tx, ownerUserId),
    });

  if (scheduleChanged) entries.push(...(await reschedule(tx, old, next, permit)));
  if (entries.length)
    await recordPermitAudit(tx, actor, { id: permit.permitId, companyId: permit.companyId }, entries);
}

async function reschedule(
  tx: Db,
  old: ConditionRow,
  next: NewCondition,
  permit: PermitFacts,
): Promise<PermitAuditEntry[]> {
  const dated = and(eq(conditionTasks.conditionId, old.id), isNull(conditionTasks.eventId));
  const [open] = await tx
    .select()
    .from(conditionTasks)
    .where(and(dated, eq(conditionTasks.status, "open")));
  const [lastClosed] = await queryRows<{ due_on: string | null }>(
    tx,
    sql`select max(due_on)::text as due_on from condition_tasks
        where condition_id = ${old.id} and event_id is null and status <> 'open'`,
  );
  const today = todayIn(permit.timeZone);
  const from =
    next.schedule === "every" && lastClosed?.due_on && addDays(lastClosed.due_on, 1) > today
      ? addDays(lastClosed.due_on, 1)
      : today;
  const task = firstTask(specOf(next), permit.timeZone, from);
  // The closed tasks were numbered by the old schedule.
  await tx
    .update(conditionTasks)
    .set({ occurrence: null })
    .where(and(dated, ne(conditionTasks.status, "open"), isNotNull(conditionTasks.occurrence)));
  const entries: PermitAuditEntry[] = [];
  if (open) {
    if (task) {
      await tx
        .update(conditionTasks)
        .set({
          occurrence: task.occurrence,
          dueAt: new Date(task.dueAt),
          dueOn: task.dueOn,
          timed: task.timed,
        })
        .where(eq(conditionTasks.id, open.id));
      if (task.dueOn !== open.dueOn || task.dueAt !== open.dueAt.toISOString())
        entries.push({
          action: "task_rescheduled",
          field: "task",
          oldValue: taskAuditText(old.title, open.dueOn),
          newValue: taskAuditText(next.title, task.dueOn),
        });
    } else {
      await tx.delete(conditionTasks).where(eq(conditionTasks.id, open.id));
      entries.push({ action: "task_removed", field: "task", oldValue: taskAuditText(old.title, open.dueOn) });
    }
  } else if (task && (old.schedule !== next.schedule || next.schedule === "every")) {
    await tx.insert(conditionTasks).values({
      companyId: permit.companyId,
      permitId: permit.permitId,
      conditionId: old.id,
      occurrence: task.occurrence,
      dueAt: new Date(task.dueAt),
      dueOn: task.dueOn,
      timed: task.timed,
    });
    entries.push({ action: "task_created", field: "task", newValue: taskAuditText(next.title, task.dueOn) });
  }
  return entries;
}

/** Removes a condition: kept (removed_at) with its closed tasks as the record; its open tasks closed. */
export async function removeCondition(
  tx: Db,
  actor: Actor,
  found: { condition: ConditionRow; permit: PermitFacts },
): Promise<void> {
  const { condition, permit } = found;
  const target = { id: permit.permitId, companyId: permit.companyId };
  await tx
    .update(permitConditions)
    .set({ removedAt: new Date(), updatedAt: new Date() })
    .where(eq(permitConditions.id, condition.id));
  await recordPermitAudit(tx, actor, target, [
    {
      action: "condition_removed",
      field: "condition",
      oldValue: conditionAuditText(condition.title, specOfRow(condition)),
    },
  ]);
  await closeOpenTasks(tx, target, CONDITION_REMOVED_REASON, actor, { conditionId: condition.id });
}
