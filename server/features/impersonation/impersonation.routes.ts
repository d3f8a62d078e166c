import { asc, eq, not, sql } from "drizzle-orm";
import { fromNodeHeaders } from "better-auth/node";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { canImpersonate, canImpersonateUser } from "../../access/policies/impersonation.ts";
import { actorOf } from "../../auth/plugin.ts";
import { forwardCookies, sessionTokenOf, withSessionToken } from "../../auth/cookies.ts";
import { rotateSession } from "../../auth/session.ts";
import { displayName } from "../../access/actor-from-user.ts";
import { companies, users } from "../../db/schema.ts";
import { AppError, authorize, conflict, notFound } from "../../errors.ts";
import { OkSchema, errorResponses } from "../../../shared/schemas/common.ts";
import {
  ImpersonationCandidatesSchema,
  ImpersonationResultSchema,
  StartImpersonationSchema,
} from "../../../shared/schemas/impersonation.ts";
import type { Role } from "../../../shared/domain/roles.ts";
import { recordEvent } from "../../audit/audit-writer.ts";

const errors = errorResponses(400, 401, 403, 404, 409);
const NO_COMPANY = "No Company";

/**
 * The super-admin's "mimic" (spec sections 1 and 4), as server-side sessions of better-auth's
 * admin plugin: starting swaps the session cookie for one of the target user (kept for an hour at
 * most), and every request then resolves to that user with the super-admin as impersonator.
 * Super-admins and disabled users cannot be impersonated; start and stop are audited.
 */
export async function impersonationRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db, auth } = app.ctx;

  r.get(
    "/api/impersonation/candidates",
    {
      schema: {
        tags: ["impersonation"],
        summary: "Users a super-admin may view the app as, grouped by company name",
        response: { 200: ImpersonationCandidatesSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canImpersonate(actor));
      const rows = await db
        .select({ user: users, companyName: companies.name })
        .from(users)
        .leftJoin(companies, eq(companies.id, users.companyId))
        .where(not(users.banned))
        .orderBy(
          asc(sql`lower(${companies.name})`),
          asc(sql`lower(${users.lastName})`),
          asc(sql`lower(${users.firstName})`),
          asc(users.email),
        );
      const groups = new Map<
        string,
        { companyName: string; users: { id: string; name: string; email: string; role: Role }[] }
      >();
      for (const { user, companyName } of rows) {
        // Super-admins are a handful: the policy filters them out rather than a second copy in SQL.
        if (!canImpersonateUser(actor, user)) continue;
        const name = companyName ?? NO_COMPANY;
        const group = groups.get(name) ?? { companyName: name, users: [] };
        group.users.push({
          id: user.id,
          name: displayName(user),
          email: user.email,
          role: user.role as Role,
        });
        groups.set(name, group);
      }
      return { groups: [...groups.values()] };
    },
  );

  r.post(
    "/api/impersonation",
    {
      schema: {
        tags: ["impersonation"],
        summary: "View the app as another user (super-admin); ends by itself after one hour",
        body: StartImpersonationSchema,
        response: { 200: ImpersonationResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      authorize(canImpersonate(actor));
      const [target] = await db.select().from(users).where(eq(users.id, request.body.userId));
      if (!target) throw notFound("User");
      authorize(canImpersonateUser(actor, target), "A super-admin cannot be impersonated.");
      if (target.banned) throw conflict("A disabled user cannot be impersonated.");

      const res = await auth.api.impersonateUser({
        body: { userId: target.id },
        headers: fromNodeHeaders(request.headers),
        asResponse: true,
      });
      if (!res.ok) {
        request.log.error({ status: res.status }, "impersonation refused by better-auth");
        throw new AppError(
          res.status === 403 ? 403 : 500,
          res.status === 403 ? "FORBIDDEN" : "INTERNAL",
          "Impersonation could not be started.",
        );
      }
      // Recorded once the session exists; a failure above leaves no trace to explain.
      await recordEvent(db, actor, {
        action: "impersonation.start",
        entityType: "user",
        entityId: target.id,
        companyId: target.companyId,
        details: { userName: displayName(target), email: target.email },
      });
      forwardCookies(res, reply);
      return { user: { id: target.id, name: displayName(target), email: target.email } };
    },
  );

  r.delete(
    "/api/impersonation",
    {
      schema: {
        tags: ["impersonation"],
        summary: "Stop viewing as another user; the super-admin's own session is restored",
        response: { 200: OkSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      if (!actor.impersonatorId) throw conflict("You are not viewing the app as another user.");
      const res = await auth.api.stopImpersonating({
        headers: fromNodeHeaders(request.headers),
        asResponse: true,
      });
      if (!res.ok) {
        request.log.error({ status: res.status }, "stopping impersonation failed in better-auth");
        throw new AppError(500, "INTERNAL", "Could not return to your own account. Sign in again.");
      }
      // better-auth restores the admin's session from before, whose token sat in a second cookie for
      // the whole impersonation; the admin gets a fresh session instead and the old token dies.
      const restored = res.headers.getSetCookie();
      const oldToken = sessionTokenOf(restored);
      const freshToken = oldToken ? await rotateSession(auth, oldToken) : null;
      if (!freshToken) {
        request.log.error("stopping impersonation restored no admin session");
        throw new AppError(500, "INTERNAL", "Could not return to your own account. Sign in again.");
      }
      await recordEvent(db, actor, {
        action: "impersonation.stop",
        entityType: "user",
        entityId: actor.userId,
        details: { userName: actor.name, email: actor.email },
      });
      reply.header("set-cookie", withSessionToken(restored, freshToken, (await auth.$context).secret));
      return { ok: true as const };
    },
  );
}
