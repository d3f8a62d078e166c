import { isCompanyStaffRole, isSuperAdminRole } from "../../../shared/domain/roles.ts";
import type { Actor } from "../actor.ts";

/**
 * Who must sign in with a second factor (decision 0011): a super-admin always; a company's staff
 * (company-admins and company-users) when the company requires it. A client-user is never forced:
 * they are the client's people, read only their clients' permits, and may still turn it on.
 */
export function mustUseTwoFactor(
  user: { role: string },
  company: { requireTwoFactor: boolean } | null | undefined,
): boolean {
  return isSuperAdminRole(user.role) || (isCompanyStaffRole(user.role) && !!company?.requireTwoFactor);
}

/**
 * One's own second factor (enrol, confirm, new recovery codes, turn off) is changed by that person
 * only: never by a super-admin viewing the app as them.
 */
export const canManageOwnTwoFactor = (actor: Actor) => actor.impersonatorId === null;

/** Turning it off is refused to whoever must use it. */
export const canDisableOwnTwoFactor = (actor: Actor, required: boolean) =>
  canManageOwnTwoFactor(actor) && !required;

/** The `can` flags of the account page's two-factor section. */
export function ownTwoFactorCan(actor: Actor, state: { enabled: boolean; required: boolean }) {
  const manage = canManageOwnTwoFactor(actor);
  return {
    enable: manage && !state.enabled,
    disable: state.enabled && canDisableOwnTwoFactor(actor, state.required),
    regenerateRecoveryCodes: manage && state.enabled,
  };
}

/**
 * Who hears that a user's code step was locked after too many wrong codes: the people who can reset
 * it (canResetTwoFactor) and look after that account day to day. The company's admins for its
 * people; the other super-admins for a super-admin. The user is told separately.
 */
export function twoFactorLockAudience(user: { role: string; companyId: string | null }) {
  return isSuperAdminRole(user.role) || !user.companyId
    ? { role: "super-admin" as const, companyId: null }
    : { role: "company-admin" as const, companyId: user.companyId };
}
