import type { BondStatus } from "../../../shared/domain/bonds.ts";
import { isClosedRecord } from "../../../shared/domain/record-status.ts";
import { actorCan, type Actor } from "../actor.ts";
import { refuse, type Refusal } from "../../errors.ts";
import { withinScope, type TenantRecord } from "./scope.ts";

// Conditions of approval and their tasks (issue 29, decision 0032).

/** What the task rules need of a task's permit. */
export interface ConditionPermitRecord extends TenantRecord {
  closeDate: string | null;
  bondStatus: string | null;
  archived: boolean;
}

export const TASKS_OF_CLOSED_PERMIT =
  "This permit is closed or archived: its tasks can no longer be completed or marked Not Applicable.";
export const CONDITIONS_OF_CLOSED_PERMIT =
  "This permit is closed or archived: reopen it to add or change its conditions.";

const isClosedPermit = (p: ConditionPermitRecord) =>
  p.archived || isClosedRecord({ close_date: p.closeDate, bond_status: p.bondStatus as BondStatus | null });

/** Whoever sees the permit sees its conditions and tasks (a client-user read-only). */
export const canViewConditions = (actor: Actor, permit: TenantRecord) =>
  actorCan(actor, "permits.view") && withinScope(actor, permit);

/** A task's note and evidence are the company's working record: staff only (never a client-user). */
export const canSeeTaskDetails = (actor: Actor) => actorCan(actor, "permits.edit");

/** Adding, editing and removing conditions goes with editing the permit (staff and super-admin). */
export const canManageConditions = (actor: Actor, permit: TenantRecord) =>
  actorCan(actor, "permits.edit") && withinScope(actor, permit);

/** The same people complete tasks and mark them Not Applicable. */
export const canCompleteTasks = (actor: Actor, permit: TenantRecord) => canManageConditions(actor, permit);

/** Why the actor may not change this permit's conditions: 403, or 409 on a closed or archived permit. */
export function conditionRefusal(actor: Actor, permit: ConditionPermitRecord): Refusal | null {
  if (!canManageConditions(actor, permit)) return refuse.forbidden();
  if (isClosedPermit(permit)) return refuse.conflict(CONDITIONS_OF_CLOSED_PERMIT);
  return null;
}

/** Why the actor may not complete (or mark Not Applicable) a task of this permit. */
export function taskRefusal(actor: Actor, permit: ConditionPermitRecord): Refusal | null {
  if (!canCompleteTasks(actor, permit)) return refuse.forbidden();
  if (isClosedPermit(permit)) return refuse.conflict(TASKS_OF_CLOSED_PERMIT);
  return null;
}

/** Viewing a task's evidence file: staff who see the permit. */
export const canDownloadEvidence = (actor: Actor, permit: TenantRecord) =>
  canViewConditions(actor, permit) && canSeeTaskDetails(actor);

/** Logging an event on a project: who edits its permits, within scope. */
export const canLogProjectEvent = (actor: Actor, project: TenantRecord) =>
  actorCan(actor, "permits.edit") && withinScope(actor, project);

/** A project's events are read by whoever sees the project. */
export const canViewProjectEvents = (actor: Actor, project: TenantRecord) =>
  actorCan(actor, "permits.view") && withinScope(actor, project);
