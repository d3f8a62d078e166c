import { and, eq, ne } from "drizzle-orm";
import { fromNodeHeaders } from "better-auth/node";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { capabilitiesOf } from "../../shared/domain/permissions.ts";
import { MeSchema, ResetPasswordSchema, SignInSchema } from "../../shared/schemas/auth.ts";
import { ErrorResponseSchema, OkSchema, errorResponses } from "../../shared/schemas/common.ts";
import { recordEvent } from "../features/audit/audit.service.ts";
import { companyLogoUrl } from "../features/companies/logo-url.ts";
import { accounts, companies, sessions, users } from "../db/schema.ts";
import { AppError, forbidden, conflict } from "../errors.ts";
import { actorOf } from "./plugin.ts";
import { hashPassword } from "./password.ts";

const errors = errorResponses(400, 401, 403, 429);

/** Copies better-auth's Set-Cookie headers onto our reply. */
export function forwardCookies(res: Response, reply: FastifyReply) {
  const cookies = res.headers.getSetCookie();
  if (cookies.length) reply.header("set-cookie", cookies);
}

/** Sign-in, sign-out, the current user and the forced password reset. */
export async function authRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, db, limiter } = app.ctx;

  r.post(
    "/api/auth/sign-in",
    {
      config: { isPublic: true },
      schema: {
        tags: ["auth"],
        summary: "Sign in with e-mail and password",
        body: SignInSchema,
        response: { 200: z.object({ mustResetPassword: z.boolean() }), ...errors },
      },
    },
    async (request, reply) => {
      const email = request.body.email.trim().toLowerCase();
      await limiter.check(request.ip, email);
      const res = await auth.api.signInEmail({
        body: { email, password: request.body.password, rememberMe: true },
        headers: fromNodeHeaders(request.headers),
        asResponse: true,
      });
      if (res.status === 403) {
        throw new AppError(
          403,
          "ACCOUNT_DISABLED",
          "Your account is disabled. Please contact your administrator.",
        );
      }
      if (!res.ok) {
        // Unknown e-mail and wrong password are indistinguishable on purpose.
        await limiter.fail(email);
        if (res.status >= 500) request.log.error({ status: res.status }, "sign-in failed in better-auth");
        throw new AppError(401, "INVALID_CREDENTIALS", "Invalid email or password.");
      }
      await limiter.succeed(email);
      forwardCookies(res, reply);
      const [user] = await db
        .select({ mustResetPassword: users.mustResetPassword })
        .from(users)
        .where(eq(users.email, email));
      return { mustResetPassword: user?.mustResetPassword ?? false };
    },
  );

  r.post(
    "/api/auth/sign-out",
    {
      config: { isPublic: true },
      schema: { tags: ["auth"], summary: "Sign out", response: { 204: z.null() } },
    },
    async (request, reply) => {
      const res = await auth.api.signOut({ headers: fromNodeHeaders(request.headers), asResponse: true });
      forwardCookies(res, reply);
      return reply.status(204).send(null);
    },
  );

  r.get(
    "/api/me",
    { schema: { tags: ["auth"], summary: "The signed-in user", response: { 200: MeSchema, ...errors } } },
    async (request) => {
      const actor = actorOf(request);
      const [row] = await db
        .select({ user: users, company: companies })
        .from(users)
        .leftJoin(companies, eq(companies.id, users.companyId))
        .where(eq(users.id, actor.userId));
      if (!row) throw new AppError(401, "UNAUTHENTICATED", "Not authenticated.");
      const { user, company } = row;
      return {
        id: user.id,
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        role: actor.role,
        companyId: user.companyId,
        company: company
          ? {
              id: company.id,
              name: company.name,
              address: company.address,
              phone: company.phone,
              website: company.website,
              logoUrl: companyLogoUrl(company),
              timeZone: company.timeZone,
            }
          : null,
        mustResetPassword: actor.mustResetPassword,
        capabilities: capabilitiesOf(actor.role),
        impersonator:
          actor.impersonatorId && actor.impersonatorName
            ? { id: actor.impersonatorId, name: actor.impersonatorName, email: actor.impersonatorEmail ?? "" }
            : null,
      };
    },
  );

  r.post(
    "/api/me/password",
    {
      config: { allowDuringReset: true },
      schema: {
        tags: ["auth"],
        summary: "Set a new password (the forced reset after first sign-in)",
        body: ResetPasswordSchema,
        response: { 200: OkSchema, ...errors, 409: ErrorResponseSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      if (actor.impersonatorId)
        throw forbidden("A password cannot be changed while viewing as another user.");
      if (!actor.mustResetPassword) throw conflict("No password reset is pending for this account.");
      const passwordHash = await hashPassword(request.body.newPassword);
      await db.transaction(async (tx) => {
        const updated = await tx
          .update(accounts)
          .set({ password: passwordHash })
          .where(and(eq(accounts.userId, actor.userId), eq(accounts.providerId, "credential")))
          .returning({ id: accounts.id });
        if (!updated.length) throw new AppError(400, "VALIDATION", "Unable to retrieve user.");
        await tx.update(users).set({ mustResetPassword: false }).where(eq(users.id, actor.userId));
        // Setting a password does not end other sessions in better-auth; do it here.
        await tx
          .delete(sessions)
          .where(and(eq(sessions.userId, actor.userId), ne(sessions.id, actor.sessionId)));
        await recordEvent(tx, actor, {
          action: "password.reset",
          entityType: "user",
          entityId: actor.userId,
        });
      });
      return { ok: true as const };
    },
  );
}
