import { eq } from "drizzle-orm";
import { fromNodeHeaders } from "better-auth/node";
import type { FastifyRequest } from "fastify";
import type { Db } from "../db/client.ts";
import { companies, sessions, users } from "../db/schema.ts";
import { isRole } from "../../shared/domain/roles.ts";
import type { Actor } from "../access/actor.ts";
import { actorFromUser, displayName, type ActorExtras } from "../access/actor-from-user.ts";
import { canImpersonate } from "../access/policies/impersonation.ts";
import { mustUseTwoFactor } from "../access/policies/two-factor.ts";
import { AppError } from "../errors.ts";
import type { Auth } from "./auth.ts";

/**
 * Resolves the request's session to an Actor, or null when there is none. A disabled user's
 * sessions are deleted here, so disabling takes effect at the very next request.
 */
export async function resolveActor(auth: Auth, db: Db, request: FastifyRequest): Promise<Actor | null> {
  const found = await auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
  if (!found) return null;
  const [row] = await db
    .select({ user: users, requireTwoFactor: companies.requireTwoFactor })
    .from(users)
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.id, found.user.id));
  const user = row?.user;
  if (!user || !isRole(user.role)) return null;
  if (user.banned) {
    await db.delete(sessions).where(eq(sessions.userId, user.id));
    throw new AppError(
      401,
      "ACCOUNT_DISABLED",
      "Your account is disabled. Please contact your administrator.",
    );
  }
  const impersonatedBy = (found.session as { impersonatedBy?: string | null }).impersonatedBy ?? null;
  let impersonator: ActorExtras["impersonator"] = null;
  if (impersonatedBy) {
    const [imp] = await db.select().from(users).where(eq(users.id, impersonatedBy));
    if (!imp || imp.banned || !isRole(imp.role) || !canImpersonate({ role: imp.role })) return null;
    impersonator = { id: impersonatedBy, name: displayName(imp), email: imp.email };
  }
  return actorFromUser(
    db,
    { ...user, role: user.role },
    {
      sessionId: found.session.id,
      // The super-admin looking through a user's eyes is not forced to reset that user's password.
      mustResetPassword: user.mustResetPassword && !impersonatedBy,
      // Whoever must use two-factor sign-in and has not enrolled may only enrol (decision 0011).
      twoFactorSetupRequired:
        !impersonatedBy &&
        !user.twoFactorEnabled &&
        mustUseTwoFactor(user, { requireTwoFactor: row.requireTwoFactor ?? false }),
      impersonator,
    },
  );
}

/**
 * Replaces a session with a fresh one for the same user (new token, new expiry) and deletes the old
 * one, so a token that has been around (in a second cookie, say) stops working. Returns the new token.
 */
export async function rotateSession(auth: Auth, oldToken: string): Promise<string | null> {
  const ctx = await auth.$context;
  const old = await ctx.internalAdapter.findSession(oldToken);
  if (!old) return null;
  const fresh = await ctx.internalAdapter.createSession(old.session.userId);
  await ctx.internalAdapter.deleteSession(oldToken);
  return fresh.token;
}
