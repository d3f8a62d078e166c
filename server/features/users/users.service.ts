import { and, asc, eq, inArray, ne, or, type SQL, sql } from "drizzle-orm";
import { choosesCompany, scopeConditions, scopeOf, type Actor } from "../../access/actor.ts";
import {
  canAssignRole,
  canChangeRole,
  canChooseUserCompany,
  isSelf,
  removesSuperAdmin,
  userCan,
} from "../../access/policies/user.ts";
import { createAccount } from "../../auth/accounts.ts";
import { hashPassword } from "../../auth/password.ts";
import { removeTwoFactor } from "../../auth/two-factor.ts";
import { displayName } from "../../access/actor-from-user.ts";
import type { Db } from "../../db/client.ts";
import { uniqueViolation } from "../../db/errors.ts";
import {
  accounts,
  clients,
  companies,
  sessions,
  userClients,
  userNotifications,
  users,
} from "../../db/schema.ts";
import { authorize, conflict, notFound, validation } from "../../errors.ts";
import type { CreateUser, UpdateUser, User } from "../../../shared/schemas/users.ts";
import { hasClientFilter, isSuperAdminRole, type Role } from "../../../shared/domain/roles.ts";
import { recordEvent } from "../../audit/audit-writer.ts";

type UserRow = typeof users.$inferSelect;
export type ManagedUser = UserRow & { companyName: string | null; clients: { id: string; name: string }[] };

const EMAIL_TAKEN = "A user with this email already exists.";
const LAST_SUPER_ADMIN = "The last active super-admin cannot be demoted, disabled or deleted.";

/**
 * The users an admin manages: a super-admin all of them (other super-admins included), a
 * company-admin those of its own company (super-admins have no company, so they never appear).
 * Callers have checked canManageUsers first; nobody else reaches a user record.
 */
function managedScope(actor: Actor): SQL | undefined {
  return scopeConditions(scopeOf(actor), { companyId: users.companyId });
}

async function loadUsers(db: Db, where: SQL | undefined, forUpdate = false): Promise<ManagedUser[]> {
  const query = db
    .select({ user: users, companyName: companies.name })
    .from(users)
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(where)
    .orderBy(asc(sql`lower(${users.lastName})`), asc(sql`lower(${users.firstName})`), asc(users.email));
  const rows = forUpdate ? await query.for("update", { of: users }) : await query;
  const clientUserIds = rows.filter((r) => hasClientFilter(r.user.role)).map((r) => r.user.id);
  const links = clientUserIds.length
    ? await db
        .select({ userId: userClients.userId, id: clients.id, name: clients.name })
        .from(userClients)
        .innerJoin(clients, eq(clients.id, userClients.clientId))
        .where(inArray(userClients.userId, clientUserIds))
        .orderBy(asc(sql`lower(${clients.name})`))
    : [];
  return rows.map(({ user, companyName }) => ({
    ...user,
    companyName,
    clients: links.filter((l) => l.userId === user.id).map(({ id, name }) => ({ id, name })),
  }));
}

/** Every user the actor manages; a super-admin may ask for one company's ("none": super-admins). */
export async function listUsers(db: Db, actor: Actor, companyFilter?: string): Promise<ManagedUser[]> {
  const filter = !choosesCompany(actor)
    ? undefined
    : companyFilter === "none"
      ? sql`${users.companyId} is null`
      : companyFilter
        ? eq(users.companyId, companyFilter)
        : undefined;
  return loadUsers(db, and(managedScope(actor), filter));
}

/**
 * A user the actor manages, or 404 (another company's user, or a super-admin for a company-admin);
 * locked for a write's transaction with `forUpdate` (lockedWrite's load).
 */
export async function findManagedUser(
  db: Db,
  actor: Actor,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<ManagedUser> {
  const [user] = await loadUsers(db, and(eq(users.id, id), managedScope(actor)), opts.forUpdate);
  if (!user) throw notFound("User");
  return user;
}

/** The API's view of a user, with what the actor may do to it (the user policy's flags). */
export function presentUser(actor: Actor, u: ManagedUser): User {
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    phone: u.phone,
    title: u.title,
    role: u.role as Role,
    companyId: u.companyId,
    companyName: u.companyName,
    disabled: u.banned,
    mustResetPassword: u.mustResetPassword,
    twoFactorEnabled: u.twoFactorEnabled,
    clients: u.clients,
    createdAt: u.createdAt.toISOString(),
    can: userCan(actor, u),
  };
}

/**
 * The company a user is written to: super-admins belong to none; a super-admin names it (and it
 * must exist); a company-admin's users are always in its own company, whatever the body says.
 */
async function companyFor(
  db: Db,
  actor: Actor,
  role: Role,
  requested: string | null,
): Promise<string | null> {
  authorize(canAssignRole(actor, role));
  if (isSuperAdminRole(role)) return null;
  if (!canChooseUserCompany(actor)) return actor.companyId;
  if (!requested) throw validation({ companyId: "Company is required" });
  const [company] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, requested));
  if (!company) throw validation({ companyId: "This company does not exist." });
  return company.id;
}

function emailConflict(err: unknown): never {
  if (uniqueViolation(err) === "users_email_unique") throw conflict(EMAIL_TAKEN, { email: EMAIL_TAKEN });
  throw err;
}

/** Refuses a change that would leave no active super-admin; locks them so two admins cannot race. */
async function assertAnotherActiveSuperAdmin(tx: Db, excludingId: string) {
  const others = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, "super-admin"), eq(users.banned, false), ne(users.id, excludingId)))
    .for("update");
  if (!others.length) throw conflict(LAST_SUPER_ADMIN);
}

/** Creates a user with a password credential; audited. */
export async function createUser(db: Db, actor: Actor, input: CreateUser): Promise<string> {
  const companyId = await companyFor(db, actor, input.role, input.companyId);
  try {
    return await db.transaction(async (tx) => {
      const user = await createAccount(tx, {
        email: input.email,
        password: input.password,
        role: input.role,
        companyId,
        firstName: input.firstName,
        lastName: input.lastName,
        phone: input.phone || null,
        title: input.title || null,
        mustResetPassword: input.mustResetPassword,
      });
      await recordEvent(tx, actor, {
        action: "user.create",
        entityType: "user",
        entityId: user.id,
        companyId,
        details: { email: user.email, role: user.role, mustResetPassword: user.mustResetPassword },
      });
      return user.id;
    });
  } catch (err) {
    emailConflict(err);
  }
}

/** A new password's hash, made before the write's transaction (argon2 takes a while; no lock held meanwhile). */
export const passwordHashOf = (input: UpdateUser) => (input.password ? hashPassword(input.password) : null);

/**
 * Updates a locked user the actor may edit (the route's lockedWrite), returning the user as saved. A
 * new password ends the user's other sessions (better-auth keeps them); moving a user to another
 * company, or out of the client-user role, drops links that belonged to the old one.
 */
export async function updateUser(
  tx: Db,
  actor: Actor,
  target: ManagedUser,
  input: UpdateUser,
  passwordHash: string | null,
): Promise<ManagedUser> {
  const self = isSelf(actor, target);
  if (!canChangeRole(actor, target, input.role))
    throw validation({ role: "You cannot change your own role." });
  const companyId = await companyFor(tx, actor, input.role, input.companyId);
  const values = {
    firstName: input.firstName,
    lastName: input.lastName,
    name: displayName({ firstName: input.firstName, lastName: input.lastName, email: target.email }),
    phone: input.phone || null,
    title: input.title || null,
    role: input.role,
    companyId,
    ...(input.mustResetPassword === undefined ? {} : { mustResetPassword: input.mustResetPassword }),
  };
  const changed = (Object.keys(values) as (keyof typeof values)[]).filter(
    (k) => k !== "name" && values[k] !== target[k],
  );
  if (removesSuperAdmin(target, { role: input.role })) await assertAnotherActiveSuperAdmin(tx, target.id);
  await tx.update(users).set(values).where(eq(users.id, target.id));
  if (companyId !== target.companyId || !hasClientFilter(input.role)) {
    await tx.delete(userClients).where(eq(userClients.userId, target.id));
  }
  if (companyId !== target.companyId)
    await tx.delete(userNotifications).where(eq(userNotifications.userId, target.id));
  if (passwordHash) {
    await setPassword(tx, target.id, passwordHash);
    // An admin changing their own password keeps the session they are using.
    await tx
      .delete(sessions)
      .where(and(eq(sessions.userId, target.id), self ? ne(sessions.id, actor.sessionId) : undefined));
  }
  if (changed.length || passwordHash) {
    await recordEvent(tx, actor, {
      action: "user.update",
      entityType: "user",
      entityId: target.id,
      companyId: companyId ?? target.companyId,
      details: { email: target.email, fields: changed, passwordChanged: !!passwordHash },
    });
  }
  // The same company and client filter: the new state is the row with the new values.
  if (companyId === target.companyId && hasClientFilter(input.role) === hasClientFilter(target.role))
    return { ...target, ...values };
  return findManagedUser(tx, actor, target.id);
}

async function setPassword(tx: Db, userId: string, passwordHash: string) {
  const updated = await tx
    .update(accounts)
    .set({ password: passwordHash })
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")))
    .returning({ id: accounts.id });
  if (!updated.length) {
    await tx
      .insert(accounts)
      .values({ accountId: userId, providerId: "credential", userId, password: passwordHash });
  }
}

/** Deletes a locked user the actor may delete (sessions, credentials and links go by cascade; their audit entries stay). */
export async function deleteUser(tx: Db, actor: Actor, target: ManagedUser) {
  if (removesSuperAdmin(target, { deleted: true })) await assertAnotherActiveSuperAdmin(tx, target.id);
  await tx.delete(users).where(eq(users.id, target.id));
  await recordEvent(tx, actor, {
    action: "user.delete",
    entityType: "user",
    entityId: target.id,
    companyId: target.companyId,
    details: { email: target.email, role: target.role },
  });
}

/**
 * Disables or enables a locked user (the policy refused a user already so). Disabling deletes the
 * user's sessions, and the impersonation sessions a disabled super-admin holds, so they stop
 * working at the very next request.
 */
export async function setDisabled(
  tx: Db,
  actor: Actor,
  target: ManagedUser,
  disabled: boolean,
): Promise<ManagedUser> {
  if (removesSuperAdmin(target, { disabled })) await assertAnotherActiveSuperAdmin(tx, target.id);
  const values = { banned: disabled, banReason: disabled ? `Disabled by ${actor.name}` : null, banExpires: null };
  await tx.update(users).set(values).where(eq(users.id, target.id));
  if (disabled) {
    await tx.delete(sessions).where(or(eq(sessions.userId, target.id), eq(sessions.impersonatedBy, target.id)));
  }
  await recordEvent(tx, actor, {
    action: disabled ? "user.disable" : "user.enable",
    entityType: "user",
    entityId: target.id,
    companyId: target.companyId,
    details: { email: target.email },
  });
  return { ...target, ...values };
}

/** Replaces a locked client-user's visible clients; every id must be a client of the user's own company. */
export async function setUserClients(
  tx: Db,
  actor: Actor,
  target: ManagedUser,
  clientIds: string[],
): Promise<ManagedUser> {
  if (!hasClientFilter(target.role) || !target.companyId) {
    throw validation({ clientIds: "Only client users have a client filter." });
  }
  const ids = [...new Set(clientIds)];
  const found = ids.length
    ? await tx
        .select({ id: clients.id, name: clients.name })
        .from(clients)
        .where(and(eq(clients.companyId, target.companyId), inArray(clients.id, ids)))
        .orderBy(asc(sql`lower(${clients.name})`))
    : [];
  if (found.length !== ids.length)
    throw validation({ clientIds: "Choose clients of the user's own company." });
  await tx.delete(userClients).where(eq(userClients.userId, target.id));
  if (ids.length) {
    await tx
      .insert(userClients)
      .values(ids.map((clientId) => ({ userId: target.id, clientId, companyId: target.companyId! })));
  }
  await recordEvent(tx, actor, {
    action: "user.clients",
    entityType: "user",
    entityId: target.id,
    companyId: target.companyId,
    details: { email: target.email, clientIds: ids },
  });
  return { ...target, clients: found };
}

/**
 * An admin's reset of a locked user's two-factor sign-in (a lost phone): the secret and recovery
 * codes go, the user's sessions end, and the next sign-in asks for a new enrolment if the user must
 * use it.
 */
export async function resetTwoFactor(tx: Db, actor: Actor, target: ManagedUser): Promise<ManagedUser> {
  await removeTwoFactor(tx, target.id);
  await recordEvent(tx, actor, {
    action: "user.two_factor_reset",
    entityType: "user",
    entityId: target.id,
    companyId: target.companyId,
    details: { email: target.email },
  });
  return { ...target, twoFactorEnabled: false };
}
