import { timingSafeEqual } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { FastifyRequest } from "fastify";
import type { Db } from "../db/client.ts";
import { withCompiledRows } from "../db/compiled-rows.ts";
import { companies, sessions, userClients, users } from "../db/schema.ts";
import { isRole } from "../../shared/domain/roles.ts";
import type { Actor } from "../access/actor.ts";
import { buildActor, displayName, type ActorExtras } from "../access/actor-from-user.ts";
import { canImpersonate } from "../access/policies/impersonation.ts";
import { mustUseTwoFactor } from "../access/policies/two-factor.ts";
import { AppError } from "../errors.ts";
import { SESSION_EXPIRES_IN_S, SESSION_UPDATE_AGE_S, type Auth } from "./auth.ts";
import { withinBetterAuth } from "./better-auth-calls.ts";
import { sessionTokenSignature } from "./cookies.ts";

const impersonators = alias(users, "impersonator");

/**
 * Who is asking, in one statement: the session by its token, with its user, the user's company
 * switch for two-factor sign-in, a client-user's clients and, on an impersonation session, the
 * super-admin behind it. Nothing is cached between requests, so a disabled user, a signed-out or
 * revoked session and a changed password (which deletes the other sessions) take effect at the
 * very next request.
 */
function sessionQuery(db: Db) {
  const statement = db
    .select({
      sessionId: sessions.id,
      expiresAt: sessions.expiresAt,
      impersonatedBy: sessions.impersonatedBy,
      user: {
        id: users.id,
        role: users.role,
        companyId: users.companyId,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        banned: users.banned,
        mustResetPassword: users.mustResetPassword,
        twoFactorEnabled: users.twoFactorEnabled,
      },
      requireTwoFactor: companies.requireTwoFactor,
      clientIds: sql<
        string[]
      >`array(select ${userClients.clientId}::text from ${userClients} where ${userClients.userId} = ${users.id})`,
      impersonator: {
        id: impersonators.id,
        role: impersonators.role,
        email: impersonators.email,
        firstName: impersonators.firstName,
        lastName: impersonators.lastName,
        banned: impersonators.banned,
      },
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(impersonators, eq(impersonators.id, sessions.impersonatedBy))
    .where(eq(sessions.token, sql.placeholder("token")))
    // Built once; on PostgreSQL a named statement, parsed and planned once per connection.
    .prepare("permitrack_session_by_token");
  // Read at every request: its rows mapped by a function compiled for its fields.
  return withCompiledRows(statement);
}

export interface SessionReader {
  /** The request's session as an Actor, or null when there is none (or it is expired or forged). */
  resolveActor(request: FastifyRequest): Promise<Actor | null>;
}

/** How many verified session cookies createSessionReader() remembers. */
const VERIFIED_COOKIES_KEPT = 10_000;

/**
 * Reads better-auth's session cookie the way better-auth does (`token.signature`, HMAC-SHA256 of
 * the token with the app secret, base64, URL-encoded), but loads the session and everything the
 * Actor needs with our own single query instead of better-auth's three (session, user, and ours).
 * better-auth still creates, refreshes on sign-in, and deletes sessions; the rules it applies on
 * reading one are kept here: an expired session is deleted and counts as none, and a session
 * older than a day is extended by a week (one more statement, once a day per session).
 */
export async function createSessionReader(auth: Auth, db: Db): Promise<SessionReader> {
  const ctx = await auth.$context;
  const cookieName = ctx.authCookies.sessionToken.name;
  const secret = ctx.secret;
  const sessionByToken = sessionQuery(db);

  // Cookie values whose signature checked out, and their token: the check is a pure function of
  // the value and the secret, so a session's later requests skip the HMAC. Only valid values are
  // kept (made-up cookies cannot fill it); emptied when full. The session row is still read at
  // every request, so revocation is untouched.
  const verified = new Map<string, string>();
  const tokenOf = (request: FastifyRequest): string | null => {
    const raw = cookieValue(request.headers.cookie, cookieName);
    if (!raw) return null;
    const known = verified.get(raw);
    if (known) return known;
    const token = verifiedToken(raw);
    if (token) {
      if (verified.size >= VERIFIED_COOKIES_KEPT) verified.clear();
      verified.set(raw, token);
    }
    return token;
  };
  const verifiedToken = (raw: string): string | null => {
    let value: string;
    try {
      value = decodeURIComponent(raw);
    } catch {
      return null;
    }
    const dot = value.lastIndexOf(".");
    if (dot < 1) return null;
    const token = value.slice(0, dot);
    const signature = Buffer.from(value.slice(dot + 1), "base64");
    const expected = sessionTokenSignature(token, secret);
    return signature.length === expected.length && timingSafeEqual(signature, expected) ? token : null;
  };

  return {
    async resolveActor(request) {
      const token = tokenOf(request);
      if (!token) return null;
      const [row] = await sessionByToken.execute({ token });
      if (!row) return null;
      const now = Date.now();
      if (row.expiresAt.getTime() <= now) {
        await db.delete(sessions).where(eq(sessions.id, row.sessionId));
        return null;
      }
      const user = row.user;
      if (!isRole(user.role)) return null;
      if (user.banned) {
        // Disabling takes effect at the very next request: every session of the user goes.
        await db.delete(sessions).where(eq(sessions.userId, user.id));
        throw new AppError(
          401,
          "ACCOUNT_DISABLED",
          "Your account is disabled. Please contact your administrator.",
        );
      }
      let impersonator: ActorExtras["impersonator"] = null;
      if (row.impersonatedBy) {
        const imp = row.impersonator;
        if (!imp || imp.banned || !isRole(imp.role) || !canImpersonate({ role: imp.role })) return null;
        impersonator = { id: imp.id, name: displayName(imp), email: imp.email };
      } else if (row.expiresAt.getTime() - SESSION_EXPIRES_IN_S * 1000 + SESSION_UPDATE_AGE_S * 1000 <= now) {
        // better-auth's rolling expiry (an impersonation session keeps its one hour).
        await db
          .update(sessions)
          .set({ expiresAt: new Date(now + SESSION_EXPIRES_IN_S * 1000), updatedAt: new Date(now) })
          .where(eq(sessions.id, row.sessionId));
      }
      return buildActor({ ...user, role: user.role }, row.clientIds, {
        sessionId: row.sessionId,
        // The super-admin looking through a user's eyes is not forced to reset that user's password.
        mustResetPassword: user.mustResetPassword && !impersonator,
        // Whoever must use two-factor sign-in and has not enrolled may only enrol (decision 0011).
        twoFactorSetupRequired:
          !impersonator &&
          !user.twoFactorEnabled &&
          mustUseTwoFactor(user, { requireTwoFactor: row.requireTwoFactor ?? false }),
        impersonator,
      });
    },
  };
}

/** One cookie's raw value from a Cookie header (the first, as better-auth reads it), or null. */
function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eqAt = part.indexOf("=");
    if (eqAt < 0) continue;
    if (part.slice(0, eqAt).trim() === name) return part.slice(eqAt + 1).trim();
  }
  return null;
}

/**
 * Replaces a session with a fresh one for the same user (new token, new expiry) and deletes the old
 * one, so a token that has been around (in a second cookie, say) stops working. Returns the new token.
 */
export async function rotateSession(auth: Auth, oldToken: string): Promise<string | null> {
  const ctx = await auth.$context;
  return withinBetterAuth(async () => {
    const old = await ctx.internalAdapter.findSession(oldToken);
    if (!old) return null;
    const fresh = await ctx.internalAdapter.createSession(old.session.userId);
    await ctx.internalAdapter.deleteSession(oldToken);
    return fresh.token;
  });
}
