import { can } from "../../../shared/domain/permissions.ts";
import { ROLES, type Role } from "../../../shared/domain/roles.ts";
import { actorCan, type Actor } from "../actor.ts";
import { withinScope, type TenantRecord } from "./scope.ts";

/** A permit's reminder delivery log names staff e-mail addresses: staff only. */
export const canViewPermitReminders = (actor: Actor, permit: TenantRecord) =>
  actorCan(actor, "reminders.view") && withinScope(actor, permit);

/**
 * Who may receive a company's reminder digest: the staff of one company. A client-user sees only
 * its clients' permits and a super-admin belongs to no company, so neither gets a company-wide mail.
 */
export const DIGEST_RECIPIENT_ROLES: Role[] = ROLES.filter(
  (role) => can(role, "reminders.view") && !can(role, "allCompanies"),
);

/**
 * Who gets the escalations and the overdue digest of a company (issue 11): its administrators,
 * the staff who run the company's settings (not a super-admin, who belongs to no company).
 */
export const ESCALATION_RECIPIENT_ROLES: Role[] = ROLES.filter(
  (role) => can(role, "notifications.manage") && !can(role, "allCompanies"),
);
