import { hasClientFilter, isSuperAdminRole, type Role } from "../../../shared/domain/roles.ts";
import { actorCan, choosesCompany, type Actor } from "../actor.ts";
import { refuse, type Refusal } from "../../errors.ts";
import { withinScope } from "./scope.ts";

/** What the user rules need of a user row. */
export interface UserRecord {
  id: string;
  role: string;
  companyId: string | null;
  /** Disabled. */
  banned: boolean;
  /** Signs in with a second factor; absent counts as off. */
  twoFactorEnabled?: boolean;
}

/** The users admin (list, create, and reaching any user record) needs users.manage. */
export const canManageUsers = (actor: Actor) => actorCan(actor, "users.manage");

/** Only whoever may manage super-admins gives a user that role. */
export const canAssignRole = (actor: Actor, role: Role) =>
  canManageUsers(actor) && (!isSuperAdminRole(role) || actorCan(actor, "users.manageSuperAdmins"));

/** A super-admin puts a user in any company; a company-admin's users stay in its own. */
export const canChooseUserCompany = (actor: Actor) => canManageUsers(actor) && choosesCompany(actor);

/** A company-admin never manages a super-admin (who belongs to no company, so is out of its scope anyway). */
export const canManageUser = (actor: Actor, user: UserRecord) =>
  canManageUsers(actor) &&
  (!isSuperAdminRole(user.role) || actorCan(actor, "users.manageSuperAdmins")) &&
  withinScope(actor, { companyId: user.companyId });

export const isSelf = (actor: Actor, user: UserRecord) => user.id === actor.userId;

/** Editing covers the user's fields, password and client filter. */
export const canEditUser = canManageUser;

/** Nobody changes their own role (they could lock themselves out of the admin). */
export const canChangeRole = (actor: Actor, user: UserRecord, role: Role) =>
  canManageUser(actor, user) && (!isSelf(actor, user) || role === user.role);

/** Nobody deletes themselves; a disabled user is enabled before it can be deleted. */
export function deleteUserRefusal(actor: Actor, user: UserRecord): Refusal | null {
  if (!canManageUser(actor, user)) return refuse.forbidden();
  if (isSelf(actor, user)) return refuse.forbidden("You cannot delete your own account.");
  if (user.banned) return refuse.conflict("A disabled user cannot be deleted. Enable the user first.");
  return null;
}
export const canDeleteUser = (actor: Actor, user: UserRecord) => !deleteUserRefusal(actor, user);

/** Nobody disables themselves; disabling a disabled user (or enabling an enabled one) is refused. */
export function setDisabledRefusal(actor: Actor, user: UserRecord, disabled: boolean): Refusal | null {
  if (!canManageUser(actor, user)) return refuse.forbidden();
  if (disabled && isSelf(actor, user)) return refuse.forbidden("You cannot disable your own account.");
  if (user.banned === disabled)
    return refuse.conflict(disabled ? "This user is already disabled." : "This user is not disabled.");
  return null;
}
export const canDisableUser = (actor: Actor, user: UserRecord) => !setDisabledRefusal(actor, user, true);
export const canEnableUser = (actor: Actor, user: UserRecord) => !setDisabledRefusal(actor, user, false);

/** Only a client-user has a client filter to edit. */
export const canEditUserClients = (actor: Actor, user: UserRecord) =>
  canManageUser(actor, user) && hasClientFilter(user.role);

/**
 * True when a change takes a user out of the active super-admins (demotion, disabling, deletion):
 * the service then keeps the last one (409).
 */
export const removesSuperAdmin = (
  user: UserRecord,
  change: { role?: Role; disabled?: boolean; deleted?: boolean },
) =>
  isSuperAdminRole(user.role) &&
  (change.deleted === true ||
    change.disabled === true ||
    (change.role !== undefined && !isSuperAdminRole(change.role)));

/**
 * An admin resets the second factor of a user it manages whose phone is lost (company-admins their
 * own company's users, never a super-admin; super-admins anyone). One's own goes through the
 * account page; there is nothing to reset for a user without it.
 */
export function resetTwoFactorRefusal(actor: Actor, user: UserRecord): Refusal | null {
  if (!canManageUser(actor, user)) return refuse.forbidden();
  if (isSelf(actor, user))
    return refuse.forbidden("Change your own two-factor authentication on your account page.");
  if (!user.twoFactorEnabled) return refuse.conflict("Two-factor authentication is not set up for this user.");
  return null;
}
export const canResetTwoFactor = (actor: Actor, user: UserRecord) => !resetTwoFactorRefusal(actor, user);

/** The `can` flags of a user: the routes enforce exactly these (the refusals above), the UI shows them. */
export function userCan(actor: Actor, user: UserRecord) {
  return {
    edit: canEditUser(actor, user),
    delete: canDeleteUser(actor, user),
    disable: canDisableUser(actor, user),
    enable: canEnableUser(actor, user),
    editClients: canEditUserClients(actor, user),
    resetTwoFactor: canResetTwoFactor(actor, user),
  };
}
