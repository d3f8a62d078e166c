import { and, eq, ne } from "drizzle-orm";
import { fromNodeHeaders } from "better-auth/node";
import type { FastifyReply, FastifyRequest } from "fastify";
import { displayName } from "../../access/actor-from-user.ts";
import { twoFactorLockAudience } from "../../access/policies/two-factor.ts";
import type { Auth } from "../../auth/auth.ts";
import type { SignInLimiter } from "../../auth/rate-limit.ts";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { Mailer } from "../../mail/mailer.ts";
import { recordEvent } from "../../audit/audit-writer.ts";
import { forwardCookies } from "../../auth/cookies.ts";
import { pendingCookieHeader } from "../../auth/two-factor.ts";
import {
  beginCodeAttempt,
  claimTotpStep,
  clearCodeFailures,
  undoCodeAttempt,
} from "../../auth/two-factor-guard.ts";
import { UnreadableSecondFactor } from "../../auth/totp-steps.ts";
import { users } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import {
  normalizeRecoveryCode,
  normalizeTotpCode,
  TWO_FACTOR_FAILURE_LIMIT,
  TWO_FACTOR_FAILURE_NOTICE,
} from "../../../shared/domain/two-factor.ts";
import { readAuthResponse } from "./auth-response.ts";
import { sendCodeFailureNotices } from "./code-step.mail.ts";

export const SIGN_IN_EXPIRED = "Your sign-in has expired. Please sign in again.";
export const CODE_STEP_LOCKED =
  "Too many wrong codes: sign-in with a code is locked for this account. Ask your administrator to reset your two-factor authentication.";

type Method = "totp" | "recovery";

/** What the code step uses of the app's context. */
export interface CodeStepContext {
  auth: Auth;
  db: Db;
  limiter: SignInLimiter;
  mailer: Mailer;
  config: Config;
}

/**
 * The code step of sign-in (decision 0011, issue 23). The user is the one the signed pending cookie
 * names, and only that cookie goes on to better-auth (a session cookie sent along would make it
 * check that session's user instead). An attempt is counted before anything is checked; an
 * authenticator code must be right for a time step not accepted before; a verified code clears
 * the count; at TWO_FACTOR_FAILURE_LIMIT wrong codes in a row the step is locked until an admin
 * resets the user's two-factor sign-in. Each wrong code is audited; the user is e-mailed at the
 * notice count and at the lock, the admins at the lock.
 */
export async function runCodeStep(
  ctx: CodeStepContext,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  body: { method?: Method; code: string },
) {
  const { auth, db, limiter } = ctx;
  const method: Method = body.method === "recovery" ? "recovery" : "totp";
  const code = method === "recovery" ? normalizeRecoveryCode(body.code) : normalizeTotpCode(body.code);

  const attempt = await beginCodeAttempt(db, userId);
  if (attempt.kind === "locked") throw new AppError(423, "TWO_FACTOR_LOCKED", CODE_STEP_LOCKED);

  if (attempt.kind === "attempt") {
    try {
      // Recovery codes are checked by better-auth, but under the same key: unreadable is unreadable.
      const claim = await claimTotpStep(db, (await auth.$context).secretConfig, userId, attempt.secret, code);
      if (method === "totp" && claim !== "claimed")
        return wrongCode(ctx, request, userId, method, attempt.failures, claim === "used");
    } catch (err) {
      // Logged for the operator by the error handler (its operatorNote); no code was checked.
      if (err instanceof UnreadableSecondFactor) await undoCodeAttempt(db, userId);
      throw err;
    }
  }

  const input = {
    body: { code },
    headers: fromNodeHeaders({
      ...request.headers,
      cookie: await pendingCookieHeader(auth, request.headers.cookie),
    }),
    asResponse: true as const,
  };
  const res =
    method === "recovery" ? await auth.api.verifyBackupCode(input) : await auth.api.verifyTOTP(input);
  const result = await readAuthResponse(res);
  // better-auth expires the pending cookie when a challenge is used up; pass that on too.
  forwardCookies(res, reply);
  if (!result.ok) {
    const counted = attempt.kind === "attempt";
    // A right authenticator code (its step was claimed above) that better-auth, a moment later,
    // finds out of its window: the half-minute turned in between. No guess: say so, count nothing.
    if (result.code === "INVALID_CODE" && counted) {
      await undoCodeAttempt(db, userId);
      throw new AppError(401, "INVALID_CREDENTIALS", "That code has just expired. Enter the next code.");
    }
    // Only a wrong code counts: where better-auth checked none (its own limits, an expired
    // challenge), the attempt is taken back.
    if (counted && result.code !== "INVALID_BACKUP_CODE") await undoCodeAttempt(db, userId);
    switch (result.code) {
      case "INVALID_CODE":
      case "INVALID_BACKUP_CODE":
        return wrongCode(ctx, request, userId, method, counted ? attempt.failures : 0, false);
      case "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE":
        await limiter.failCode(userId);
        throw new AppError(401, "UNAUTHENTICATED", "Too many incorrect codes. Please sign in again.");
      case "ACCOUNT_TEMPORARILY_LOCKED":
        throw new AppError(
          429,
          "RATE_LIMITED",
          "Too many sign-in attempts. Please wait a few minutes and try again.",
          undefined,
          { "retry-after": "900" },
        );
      default:
        if (result.status >= 500)
          request.log.error({ status: result.status }, "code step failed in better-auth");
        throw new AppError(401, "UNAUTHENTICATED", SIGN_IN_EXPIRED);
    }
  }
  // This user's own code was verified: only now do its wrong codes stop counting.
  await clearCodeFailures(db, userId);
  await limiter.succeedCode(userId);
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (method === "recovery" && user) {
    // A used recovery code means a lost or absent phone: worth a line in the audit.
    await recordEvent(db, selfActor(user), {
      action: "two_factor.recovery_code_used",
      entityType: "user",
      entityId: userId,
    });
  }
  return {
    codeRequired: false,
    mustResetPassword: user?.mustResetPassword ?? false,
    twoFactorSetupRequired: false,
  };
}

const selfActor = (user: typeof users.$inferSelect) => ({
  userId: user.id,
  name: displayName(user),
  companyId: user.companyId,
  impersonatorId: null,
  impersonatorName: null,
});

/** A wrong (or already used) code: counted, audited, told; then the answer the form shows. */
async function wrongCode(
  ctx: CodeStepContext,
  request: FastifyRequest,
  userId: string,
  method: Method,
  failures: number,
  reused: boolean,
): Promise<never> {
  const { db, limiter } = ctx;
  await limiter.failCode(userId);
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (user) {
    const locked = failures >= TWO_FACTOR_FAILURE_LIMIT;
    await recordEvent(db, selfActor(user), {
      action: locked ? "two_factor.locked" : "two_factor.code_failed",
      entityType: "user",
      entityId: userId,
      details: { method, consecutiveFailures: failures, ...(reused ? { reused: true } : {}), ip: request.ip },
    });
    if (failures === TWO_FACTOR_FAILURE_NOTICE || locked) {
      await sendCodeFailureNotices(ctx, request.log, {
        user,
        failures,
        locked,
        admins: locked ? await lockAudience(db, user) : [],
      });
    }
    if (locked) throw new AppError(423, "TWO_FACTOR_LOCKED", CODE_STEP_LOCKED);
  }
  if (reused)
    throw new AppError(
      401,
      "CODE_ALREADY_USED",
      "That code has already been used. Wait for the next code from your authenticator app.",
    );
  throw new AppError(
    401,
    "INVALID_CREDENTIALS",
    method === "recovery" ? "Invalid recovery code." : "Invalid authentication code.",
  );
}

/**
 * Who is told of a lock (twoFactorLockAudience), the user aside; the super-admins when that leaves
 * nobody (a company's only admin locked out).
 */
async function lockAudience(db: Db, user: typeof users.$inferSelect) {
  const people = (role: string, companyId: string | null) =>
    db
      .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(
        and(
          eq(users.role, role),
          companyId ? eq(users.companyId, companyId) : undefined,
          eq(users.banned, false),
          ne(users.id, user.id),
        ),
      );
  const audience = twoFactorLockAudience(user);
  const found = await people(audience.role, audience.companyId);
  return found.length || audience.role === "super-admin" ? found : people("super-admin", null);
}
