import { isOpenBondStatus, type BondStatus } from "../../../shared/domain/bonds.ts";
import { can } from "../../../shared/domain/permissions.ts";
import { ROLES, type Role } from "../../../shared/domain/roles.ts";
import type { LifecycleCan } from "../../../shared/schemas/lifecycle.ts";
import { refuse, type Refusal } from "../../errors.ts";
import { actorCan, type Actor } from "../actor.ts";
import { canReadInternalComments } from "./comment.ts";
import { withinScope, type TenantRecord } from "./scope.ts";

/** What the lifecycle rules need of a permit. */
export interface LifecycleRecord extends TenantRecord {
  closeDate: string | null;
  archived: boolean;
  recordType?: string;
  bondStatus?: string | null;
  currentAmount?: string | null;
}

/**
 * An open bond (Active or Reduced) with a ledger closes through it, with a Release or a
 * Cancellation, which also takes its amount out of the exposure; 'Close Permit' would leave the
 * amount counted (issue 12, decision 0014).
 */
export const closesThroughLedger = (permit: LifecycleRecord) =>
  permit.recordType === "bond" &&
  permit.currentAmount != null &&
  isOpenBondStatus(permit.bondStatus as BondStatus | null | undefined);

/** Terms, inspections and the acknowledgement are read by whoever sees the permit (client-users too). */
export const canViewLifecycle = (actor: Actor, permit: TenantRecord) =>
  actorCan(actor, "permits.view") && withinScope(actor, permit);

/**
 * A renewal's fee and note, an extension's reason and an inspection's notes may be 'Internal'
 * (issue 25): read by whoever reads internal comments (the same capability, comments.viewInternal),
 * never by a client-user, from the lifecycle, the audit trail or anything else. Whoever may not read
 * them has the switch ignored (false), as a comment's.
 */
export const canReadInternalNotes = (actor: Actor) => canReadInternalComments(actor);

/**
 * Renewing, extending, recording an inspection, acknowledging and closing are for the roles that
 * may edit permits. A closed permit is read-only too, but that is a state, not a right: the step
 * answers 409 with the reason (lifecycleRefusal), and the `can` flags below offer none of the actions.
 */
const canActOn = (actor: Actor, permit: LifecycleRecord) =>
  actorCan(actor, "permits.edit") && withinScope(actor, permit);

export const canRenewPermit = canActOn;
export const canExtendPermit = canActOn;
export const canRecordInspection = canActOn;
export const canAcknowledgePermit = canActOn;
export const canClosePermit = canActOn;

/**
 * Whoever received a reminder may acknowledge it from the e-mail's link without signing in, as
 * long as they are still an active staff member of the permit's company.
 */
export const canAcknowledgeByLink = (recipient: Actor, permit: LifecycleRecord) =>
  canAcknowledgePermit(recipient, permit);

export type LifecycleStep = keyof LifecycleCan;

const STEP_RIGHTS: Record<LifecycleStep, (actor: Actor, permit: LifecycleRecord) => boolean> = {
  renew: canRenewPermit,
  extend: canExtendPermit,
  inspect: canRecordInspection,
  acknowledge: canAcknowledgePermit,
  close: canClosePermit,
};

export const CLOSED_PERMIT = "This permit is closed; its terms and inspections are read-only.";
export const CLOSE_THROUGH_LEDGER =
  "An open bond is closed in its Bond Ledger: record a Release or a Cancellation, which also takes its amount out of the exposure.";

/**
 * Why the actor may not take a lifecycle step on the permit (null: may): the right (403), then the
 * state (409: closed; an open bond with a ledger closes through it). The routes answer with it and
 * the panel's `can` flags are its absence.
 */
export function lifecycleRefusal(step: LifecycleStep, actor: Actor, permit: LifecycleRecord): Refusal | null {
  if (!STEP_RIGHTS[step](actor, permit)) return refuse.forbidden();
  if (permit.closeDate) return refuse.conflict(CLOSED_PERMIT);
  if (step === "close" && closesThroughLedger(permit)) return refuse.conflict(CLOSE_THROUGH_LEDGER);
  return null;
}

/** The `can` flags of the permit's lifecycle panel: exactly the checks its routes make. */
export function lifecycleCan(actor: Actor, permit: LifecycleRecord): LifecycleCan {
  const may = (step: LifecycleStep) => !lifecycleRefusal(step, actor, permit);
  return {
    renew: may("renew"),
    extend: may("extend"),
    inspect: may("inspect"),
    acknowledge: may("acknowledge"),
    close: may("close"),
  };
}

/**
 * Who may be a permit's responsible person: a staff member of the permit's company, one who may
 * edit permits (company-admins and company-users; not client-users, nor super-admins, who belong
 * to no company).
 */
export const RESPONSIBLE_ROLES: Role[] = ROLES.filter(
  (role) => can(role, "permits.edit") && !can(role, "allCompanies"),
);
