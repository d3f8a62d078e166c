import { eq, sql } from "drizzle-orm";
import { nextTask } from "../../../shared/domain/condition-schedule.ts";
import { TASK_STATUS_LABELS } from "../../../shared/domain/conditions.ts";
import type { Actor } from "../../access/actor.ts";
import { recordPermitAudit, type PermitAuditEntry } from "../../audit/audit-writer.ts";
import type { Db } from "../../db/client.ts";
import { conditionTasks, projectEvents } from "../../db/schema.ts";
import { conflict, validation } from "../../errors.ts";
import type { StoredUpload } from "../attachments/index.ts";
import { specOfRow, taskAuditText } from "./condition-values.ts";
import type { ConditionRow, PermitFacts, TaskRow } from "./conditions.repository.ts";

// 'Complete' and 'Not Applicable' on a task (the route loaded it scoped and locked, the policy
// allowed): the task closed, the next occurrence of an 'every' condition made, audited, in one
// transaction.

export interface FoundTask {
  task: TaskRow;
  condition: ConditionRow;
  permit: PermitFacts;
}

export interface TaskChange {
  task: TaskRow;
  next: TaskRow | null;
  event: { id: string; kind: string; occurredAt: Date } | null;
}

export const EVIDENCE_REQUIRED = {
  file: "Evidence is required: attach a file",
  photo: "Evidence is required: attach a photo",
};

/** A task can be closed once: a second Complete or Not Applicable is 409 with what it is now. */
function assertOpen(task: TaskRow) {
  if (task.status !== "open")
    throw conflict(
      `This task is already ${TASK_STATUS_LABELS[task.status as keyof typeof TASK_STATUS_LABELS] ?? task.status}.`,
    );
}

/** Evidence the condition asks for must come with the completion (400, nothing changed). */
export function checkEvidence(condition: ConditionRow, stored: StoredUpload | null) {
  if (condition.evidence === "file" || condition.evidence === "photo") {
    if (!stored) throw validation({ file: EVIDENCE_REQUIRED[condition.evidence] });
  }
}

/** The next occurrence of an 'every' condition (none past its end; none for a removed condition). */
async function makeNext(tx: Db, found: FoundTask): Promise<TaskRow | null> {
  const { task, condition, permit } = found;
  if (condition.schedule !== "every" || task.occurrence === null || condition.removedAt) return null;
  const due = nextTask(specOfRow(condition), permit.timeZone, task.occurrence);
  if (!due) return null;
  const [next] = await tx
    .insert(conditionTasks)
    .values({
      companyId: permit.companyId,
      permitId: permit.permitId,
      conditionId: condition.id,
      occurrence: due.occurrence,
      dueAt: new Date(due.dueAt),
      dueOn: due.dueOn,
      timed: due.timed,
    })
    .onConflictDoNothing()
    .returning();
  return next ?? null;
}

async function eventOf(tx: Db, task: TaskRow): Promise<TaskChange["event"]> {
  if (!task.eventId) return null;
  const [e] = await tx
    .select({ id: projectEvents.id, kind: projectEvents.kind, occurredAt: projectEvents.occurredAt })
    .from(projectEvents)
    .where(eq(projectEvents.id, task.eventId));
  return e ?? null;
}

async function closeTask(
  tx: Db,
  actor: Actor,
  found: FoundTask,
  values: Partial<typeof conditionTasks.$inferInsert>,
  entries: PermitAuditEntry[],
): Promise<TaskChange> {
  const { task, condition, permit } = found;
  const [updated] = await tx
    .update(conditionTasks)
    .set({ ...values, completedBy: actor.userId, completedByName: actor.name, completedAt: sql`now()` })
    .where(eq(conditionTasks.id, task.id))
    .returning();
  const next = await makeNext(tx, found);
  if (next)
    entries.push({
      action: "task_created",
      field: "task",
      newValue: taskAuditText(condition.title, next.dueOn),
    });
  await recordPermitAudit(tx, actor, { id: permit.permitId, companyId: permit.companyId }, entries);
  return { task: updated!, next, event: await eventOf(tx, updated!) };
}

/** Complete: who and when, the note and the evidence (stored already, checked by the route). */
export async function completeTask(
  tx: Db,
  actor: Actor,
  found: FoundTask,
  input: { note: string | null; evidence: StoredUpload | null },
): Promise<TaskChange> {
  assertOpen(found.task);
  checkEvidence(found.condition, input.evidence);
  const e = input.evidence;
  const entries: PermitAuditEntry[] = [
    {
      action: "task_completed",
      field: "task",
      newValue: taskAuditText(found.condition.title, found.task.dueOn),
    },
  ];
  // The note and the evidence are staff-only, as on the card.
  if (input.note)
    entries.push({ action: "task_completed", field: "note", newValue: input.note, internal: true });
  if (e) entries.push({ action: "task_completed", field: "evidence", newValue: e.filename, internal: true });
  return closeTask(
    tx,
    actor,
    found,
    {
      status: "done",
      note: input.note,
      evidenceKey: e?.key ?? null,
      evidenceName: e?.filename ?? null,
      evidenceContentType: e?.contentType ?? null,
      evidenceSize: e?.size ?? null,
      evidenceSha256: e?.sha256 ?? null,
    },
    entries,
  );
}

/** Not Applicable, with its reason. */
export async function markNotApplicable(
  tx: Db,
  actor: Actor,
  found: FoundTask,
  reason: string,
): Promise<TaskChange> {
  assertOpen(found.task);
  return closeTask(tx, actor, found, { status: "not_applicable", reason }, [
    {
      action: "task_not_applicable",
      field: "task",
      oldValue: taskAuditText(found.condition.title, found.task.dueOn),
      newValue: reason,
    },
  ]);
}
