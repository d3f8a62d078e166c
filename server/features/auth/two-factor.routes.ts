import { fromNodeHeaders } from "better-auth/node";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { canDisableOwnTwoFactor, canManageOwnTwoFactor } from "../../access/policies/two-factor.ts";
import { userIdOf, type Actor } from "../../access/actor.ts";
import { recordEvent } from "../../audit/audit-writer.ts";
import { forwardCookies, sessionTokenOf } from "../../auth/cookies.ts";
import { claimTotpStep, endOtherSessions, storedTotpSecret } from "../../auth/two-factor-guard.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize, conflict, forbidden, validation } from "../../errors.ts";
import { OkSchema, ErrorResponseSchema, errorResponses } from "../../../shared/schemas/common.ts";
import {
  ConfirmTwoFactorSchema,
  CurrentPasswordSchema,
  RecoveryCodesSchema,
  TwoFactorEnrolmentSchema,
  TwoFactorStatusSchema,
} from "../../../shared/schemas/auth.ts";
import { manualKeyOf, normalizeTotpCode } from "../../../shared/domain/two-factor.ts";
import { readAuthResponse } from "./auth-response.ts";
import {
  loadOwnTwoFactor,
  passwordProblem,
  presentOwnTwoFactor,
  recoveryCodesOf,
} from "./two-factor.service.ts";

const errors = { ...errorResponses(400, 401, 403, 429), 409: ErrorResponseSchema };
const WRONG_FIRST_CODE = "That code is not right. Check the time on your phone and try again.";
const IMPERSONATING = "Two-factor sign-in cannot be changed while viewing as another user.";

/**
 * The signed-in user's own two-factor sign-in (the account page, decision 0011), through
 * better-auth's plugin: start (password → otpauth URI and manual key), confirm with a first code
 * (→ recovery codes, shown once), new recovery codes, turn off. Enrolment stays open to a user held
 * by the two-factor gate; the admins' reset of a lost phone is in the users feature.
 */
export async function twoFactorRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, db, limiter } = app.ctx;
  const setupOpen = { allowDuringTwoFactorSetup: true };

  /** The actor, refused while impersonating: one's second factor is one's own business. */
  const ownerOf = (request: FastifyRequest): Actor => {
    const actor = actorOf(request);
    authorize(canManageOwnTwoFactor(actor), IMPERSONATING);
    return actor;
  };

  /** Password-checking routes count against the account's sign-in limit, like a sign-in would. */
  const checkPassword = async (request: FastifyRequest, actor: Actor, res: Response) => {
    const result = await readAuthResponse(res);
    if (result.ok) return result;
    if (result.code === "INVALID_PASSWORD") await limiter.fail(actor.email);
    request.log.warn(
      { status: result.status, code: result.code },
      "two-factor change refused by better-auth",
    );
    throw passwordProblem(result);
  };

  r.get(
    "/api/me/two-factor",
    {
      config: setupOpen,
      schema: {
        tags: ["account"],
        summary: "The signed-in user's two-factor sign-in: on or off, required, recovery codes left",
        response: { 200: TwoFactorStatusSchema, ...errors },
      },
    },
    async (request) => presentOwnTwoFactor(db, auth, actorOf(request)),
  );

  r.post(
    "/api/me/two-factor/enable",
    {
      config: setupOpen,
      schema: {
        tags: ["account"],
        summary:
          "Start two-factor sign-in: a new secret as an otpauth URI (for the QR code) and a manual key",
        body: CurrentPasswordSchema,
        response: { 200: TwoFactorEnrolmentSchema, ...errors },
      },
    },
    async (request) => {
      const actor = ownerOf(request);
      if ((await loadOwnTwoFactor(db, actor)).enabled)
        throw conflict("Two-factor authentication is already on.");
      await limiter.check(request.ip, actor.email);
      const res = await auth.api.enableTwoFactor({
        body: { password: request.body.password },
        headers: fromNodeHeaders(request.headers),
        asResponse: true,
      });
      // better-auth also makes recovery codes now; they are shown once the first code confirms.
      const { body } = await checkPassword(request, actor, res);
      const otpauthUri = (body as { totpURI: string }).totpURI;
      return { otpauthUri, manualKey: manualKeyOf(otpauthUri) };
    },
  );

  r.post(
    "/api/me/two-factor/confirm",
    {
      config: setupOpen,
      schema: {
        tags: ["account"],
        summary: "Confirm two-factor sign-in with a first code; answers the recovery codes (shown once)",
        body: ConfirmTwoFactorSchema,
        response: { 200: RecoveryCodesSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = ownerOf(request);
      const state = await loadOwnTwoFactor(db, actor);
      if (state.enabled) throw conflict("Two-factor authentication is already on.");
      if (!state.isPending) throw conflict("Start the set-up again: no enrolment is waiting for a code.");
      // The first code's time step is taken too: it cannot be replayed at the next sign-in.
      const code = normalizeTotpCode(request.body.code);
      const secret = await storedTotpSecret(db, userIdOf(actor));
      const claim = secret
        ? await claimTotpStep(db, (await auth.$context).secretConfig, userIdOf(actor), secret, code)
        : "wrong";
      if (claim === "used")
        throw validation({ code: "That code has already been used. Wait for the next code." });
      if (claim === "wrong") throw validation({ code: WRONG_FIRST_CODE });
      // Other sessions end before better-auth turns it on (so none is a full session for a moment)
      // and again after, for any that signed in meanwhile.
      await endOtherSessions(db, userIdOf(actor), { id: actor.sessionId });
      const res = await auth.api.verifyTOTP({
        body: { code },
        headers: fromNodeHeaders(request.headers),
        asResponse: true,
      });
      const result = await readAuthResponse(res);
      if (!result.ok) {
        if (result.code === "INVALID_CODE") throw validation({ code: WRONG_FIRST_CODE });
        throw passwordProblem(result);
      }
      // better-auth replaced the session (the user row changed): pass the new cookie on, and end
      // every other session, which signed in with the password alone.
      forwardCookies(res, reply);
      await endOtherSessions(db, userIdOf(actor), { token: sessionTokenOf(res.headers.getSetCookie()) });
      const recoveryCodes = await recoveryCodesOf(auth, userIdOf(actor));
      await recordEvent(db, actor, {
        action: "two_factor.enable",
        entityType: "user",
        entityId: userIdOf(actor),
      });
      return { recoveryCodes };
    },
  );

  r.post(
    "/api/me/two-factor/recovery-codes",
    {
      schema: {
        tags: ["account"],
        summary: "Replace the recovery codes with a new set (the old ones stop working); shown once",
        body: CurrentPasswordSchema,
        response: { 200: RecoveryCodesSchema, ...errors },
      },
    },
    async (request) => {
      const actor = ownerOf(request);
      if (!(await loadOwnTwoFactor(db, actor)).enabled)
        throw conflict("Two-factor authentication is not on.");
      await limiter.check(request.ip, actor.email);
      const res = await auth.api.generateBackupCodes({
        body: { password: request.body.password },
        headers: fromNodeHeaders(request.headers),
        asResponse: true,
      });
      const { body } = await checkPassword(request, actor, res);
      await recordEvent(db, actor, {
        action: "two_factor.recovery_codes",
        entityType: "user",
        entityId: userIdOf(actor),
      });
      return { recoveryCodes: (body as { backupCodes: string[] }).backupCodes };
    },
  );

  r.post(
    "/api/me/two-factor/disable",
    {
      schema: {
        tags: ["account"],
        summary: "Turn two-factor sign-in off (not when the role or the company requires it)",
        body: CurrentPasswordSchema,
        response: { 200: OkSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = ownerOf(request);
      const state = await loadOwnTwoFactor(db, actor);
      if (!state.enabled) throw conflict("Two-factor authentication is not on.");
      if (!canDisableOwnTwoFactor(actor, state.required))
        throw forbidden("Two-factor authentication is required for your account and cannot be turned off.");
      await limiter.check(request.ip, actor.email);
      const res = await auth.api.disableTwoFactor({
        body: { password: request.body.password },
        headers: fromNodeHeaders(request.headers),
        asResponse: true,
      });
      await checkPassword(request, actor, res);
      forwardCookies(res, reply);
      // Sessions that passed a second factor end with it: only the one that turned it off stays.
      await endOtherSessions(db, userIdOf(actor), { token: sessionTokenOf(res.headers.getSetCookie()) });
      await recordEvent(db, actor, {
        action: "two_factor.disable",
        entityType: "user",
        entityId: userIdOf(actor),
      });
      return { ok: true as const };
    },
  );
}
