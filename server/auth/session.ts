import { eq } from "drizzle-orm";
import { fromNodeHeaders } from "better-auth/node";
import type { FastifyRequest } from "fastify";
import type { Db } from "../db/client.ts";
import { sessions, userClients, users } from "../db/schema.ts";
import { isRole } from "../../shared/domain/roles.ts";
import type { Actor } from "../access/actor.ts";
import { AppError } from "../errors.ts";
import type { Auth } from "./auth.ts";

export const displayName = (u: { firstName: string; lastName: string; email: string }) =>
  `${u.firstName} ${u.lastName}`.trim() || u.email;

/**
 * Resolves the request's session to an Actor, or null when there is none. A disabled user's
 * sessions are deleted here, so disabling takes effect at the very next request.
 */
export async function resolveActor(auth: Auth, db: Db, request: FastifyRequest): Promise<Actor | null> {
  const found = await auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
  if (!found) return null;
  const [user] = await db.select().from(users).where(eq(users.id, found.user.id));
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
  let impersonatorName: string | null = null;
  let impersonatorEmail: string | null = null;
  if (impersonatedBy) {
    const [imp] = await db.select().from(users).where(eq(users.id, impersonatedBy));
    if (!imp || imp.banned || imp.role !== "super-admin") return null;
    impersonatorName = displayName(imp);
    impersonatorEmail = imp.email;
  }
  const clientIds =
    user.role === "client-user"
      ? (
          await db
            .select({ id: userClients.clientId })
            .from(userClients)
            .where(eq(userClients.userId, user.id))
        ).map((r) => r.id)
      : [];
  return {
    userId: user.id,
    sessionId: found.session.id,
    role: user.role,
    companyId: user.companyId,
    email: user.email,
    name: displayName(user),
    clientIds,
    // The super-admin looking through a user's eyes is not forced to reset that user's password.
    mustResetPassword: user.mustResetPassword && !impersonatedBy,
    impersonatorId: impersonatedBy,
    impersonatorName,
    impersonatorEmail,
  };
}
