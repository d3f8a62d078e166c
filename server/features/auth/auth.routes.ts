import { userIdOf } from "../../access/actor.ts";
import { and, eq, ne } from "drizzle-orm";
import { fromNodeHeaders } from "better-auth/node";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { capabilitiesOf } from "../../../shared/domain/permissions.ts";
import {
  MeSchema,
  ResetPasswordSchema,
  SignInResultSchema,
  SignInSchema,
  VerifyCodeSchema,
} from "../../../shared/schemas/auth.ts";
import { ErrorResponseSchema, OkSchema, errorResponses } from "../../../shared/schemas/common.ts";
import { recordEvent } from "../../audit/audit-writer.ts";
import { companyLogoUrl } from "../companies/index.ts";
import { accounts, companies, sessions, users } from "../../db/schema.ts";
import { AppError, forbidden, conflict } from "../../errors.ts";
import { forwardCookies } from "../../auth/cookies.ts";
import { actorOf } from "../../auth/plugin.ts";
import { hashPassword } from "../../auth/password.ts";
import { pendingSignInUserId } from "../../auth/two-factor.ts";
import { mustUseTwoFactor } from "../../access/policies/two-factor.ts";
import { runCodeStep, SIGN_IN_EXPIRED } from "./code-step.service.ts";

const errors = errorResponses(400, 401, 403, 429);

/** Sign-in (password, then the code of two-factor sign-in), sign-out, the current user, the forced reset. */
export async function authRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, db, limiter } = app.ctx;

  r.post(
    "/api/auth/sign-in",
    {
      config: { isPublic: true },
      schema: {
        tags: ["auth"],
        summary: "Sign in with e-mail and password (an enrolled user then sends a code)",
        body: SignInSchema,
        response: { 200: SignInResultSchema, ...errors },
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
      // For a user with two-factor sign-in, better-auth set no session but a short-lived signed
      // cookie that carries this sign-in to the code step.
      forwardCookies(res, reply);
      const answer = (await res.json().catch(() => null)) as { twoFactorRedirect?: boolean } | null;
      if (answer?.twoFactorRedirect)
        return { codeRequired: true, mustResetPassword: false, twoFactorSetupRequired: false };
      const [row] = await db
        .select({ user: users, requireTwoFactor: companies.requireTwoFactor })
        .from(users)
        .leftJoin(companies, eq(companies.id, users.companyId))
        .where(eq(users.email, email));
      return {
        codeRequired: false,
        mustResetPassword: row?.user.mustResetPassword ?? false,
        twoFactorSetupRequired:
          !!row &&
          !row.user.twoFactorEnabled &&
          mustUseTwoFactor(row.user, { requireTwoFactor: row.requireTwoFactor ?? false }),
      };
    },
  );

  r.post(
    "/api/auth/sign-in/code",
    {
      config: { isPublic: true },
      schema: {
        tags: ["auth"],
        summary:
          "The code step of sign-in: a code from the authenticator app, or a recovery code (single use)",
        body: VerifyCodeSchema,
        response: { 200: SignInResultSchema, ...errors, ...errorResponses(409, 423) },
      },
    },
    async (request, reply) => {
      const userId = await pendingSignInUserId(auth, request.headers.cookie);
      if (!userId) throw new AppError(401, "UNAUTHENTICATED", SIGN_IN_EXPIRED);
      // Per address and per user (slows guessing); runCodeStep caps wrong codes in a row for good.
      await limiter.checkCode(request.ip, userId);
      return runCodeStep(app.ctx, request, reply, userId, request.body);
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
    {
      // Answers while a two-factor set-up is pending: the browser routes from it. (During a forced
      // password reset it answers 403 like the rest; the sign-in answer carries that flag.)
      config: { allowDuringTwoFactorSetup: true },
      schema: { tags: ["auth"], summary: "The signed-in user", response: { 200: MeSchema, ...errors } },
    },
    async (request) => {
      const actor = actorOf(request);
      const [row] = await db
        .select({ user: users, company: companies })
        .from(users)
        .leftJoin(companies, eq(companies.id, users.companyId))
        .where(eq(users.id, userIdOf(actor)));
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
        twoFactorEnabled: user.twoFactorEnabled,
        twoFactorRequired: mustUseTwoFactor(user, company),
        twoFactorSetupRequired: actor.twoFactorSetupRequired,
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
      // The reset comes first when both are pending, so it must pass the two-factor gate too.
      config: { allowDuringReset: true, allowDuringTwoFactorSetup: true },
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
          .where(and(eq(accounts.userId, userIdOf(actor)), eq(accounts.providerId, "credential")))
          .returning({ id: accounts.id });
        if (!updated.length) throw new AppError(400, "VALIDATION", "Unable to retrieve user.");
        await tx.update(users).set({ mustResetPassword: false }).where(eq(users.id, userIdOf(actor)));
        // Setting a password does not end other sessions in better-auth; do it here.
        await tx
          .delete(sessions)
          .where(and(eq(sessions.userId, userIdOf(actor)), ne(sessions.id, actor.sessionId)));
        await recordEvent(tx, actor, {
          action: "password.reset",
          entityType: "user",
          entityId: userIdOf(actor),
        });
      });
      return { ok: true as const };
    },
  );
}
