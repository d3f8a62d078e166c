import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { userClients, type users } from "../db/schema.ts";
import { hasClientFilter, type Role } from "../../shared/domain/roles.ts";
import type { Actor } from "./actor.ts";

type UserRow = typeof users.$inferSelect;

/** "First Last", or the e-mail for a user without a name. */
export const displayName = (u: { firstName: string; lastName: string; email: string }) =>
  `${u.firstName} ${u.lastName}`.trim() || u.email;

/** What a session adds to a user row; a calendar feed has none of it. */
export interface ActorExtras {
  sessionId?: string;
  mustResetPassword?: boolean;
  twoFactorSetupRequired?: boolean;
  /** The super-admin behind an impersonation session. */
  impersonator?: { id: string; name: string; email: string } | null;
}

/** The fields of a user row an Actor is made of. */
export type ActorUser = Pick<UserRow, "id" | "companyId" | "email" | "firstName" | "lastName"> & { role: Role };

/**
 * The one way to build an Actor from a user row (its role already checked): a session and a
 * calendar feed get the same scope, so the feed shows exactly what the list does. `clientIds` are
 * the user's rows in user_clients (loaded by the caller, in the same statement as the user).
 */
export function buildActor(user: ActorUser, clientIds: readonly string[], extras: ActorExtras = {}): Actor {
  return {
    userId: user.id,
    sessionId: extras.sessionId ?? "",
    role: user.role,
    companyId: user.companyId,
    email: user.email,
    name: displayName(user),
    // Only a client-user is limited to clients; anyone else's stale rows there mean nothing.
    clientIds: hasClientFilter(user.role) ? [...clientIds] : [],
    mustResetPassword: extras.mustResetPassword ?? false,
    twoFactorSetupRequired: extras.twoFactorSetupRequired ?? false,
    impersonatorId: extras.impersonator?.id ?? null,
    impersonatorName: extras.impersonator?.name ?? null,
    impersonatorEmail: extras.impersonator?.email ?? null,
  };
}

/** buildActor() for a user row alone: loads a client-user's clients first (calendar feed, links). */
export async function actorFromUser(db: Db, user: ActorUser, extras: ActorExtras = {}): Promise<Actor> {
  const clientIds = hasClientFilter(user.role)
    ? (
        await db.select({ id: userClients.clientId }).from(userClients).where(eq(userClients.userId, user.id))
      ).map((r) => r.id)
    : [];
  return buildActor(user, clientIds, extras);
}

/** The name an API key acts under, in the audit trail and the audit events (issue 30). */
export const apiKeyActorName = (keyName: string) => `API key ${keyName}`;

/**
 * The Actor of an API key (issue 30): the same shape as a user's, of the key's company and role
 * (company-admin or company-user: never a super-admin, never a client filter), but no user; like a
 * request link's outside party (linkActor in server/audit/), the trail names it: 'API key NAME'.
 */
export function buildKeyActor(key: {
  id: string;
  companyId: string;
  name: string;
  role: "company-admin" | "company-user";
}): Actor {
  return {
    userId: null,
    sessionId: "",
    role: key.role,
    companyId: key.companyId,
    email: "",
    name: apiKeyActorName(key.name),
    clientIds: [],
    mustResetPassword: false,
    twoFactorSetupRequired: false,
    impersonatorId: null,
    impersonatorName: null,
    impersonatorEmail: null,
    apiKeyId: key.id,
  };
}
