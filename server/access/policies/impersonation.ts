import { can } from "../../../shared/domain/permissions.ts";
import { isSuperAdminRole, type Role } from "../../../shared/domain/roles.ts";

/**
 * Starting (and holding) an impersonation session: a super-admin's right. Takes the role alone, so
 * the session check can apply it to the impersonator's row as well as to an Actor.
 */
export const canImpersonate = (who: { role: Role }) => can(who.role, "impersonate");

/** A super-admin is never impersonated (that would hand one super-admin another's rights). */
export const canImpersonateUser = (who: { role: Role }, target: { role: string }) =>
  canImpersonate(who) && !isSuperAdminRole(target.role);
