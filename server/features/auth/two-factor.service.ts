import { eq } from "drizzle-orm";
import { userIdOf, type Actor } from "../../access/actor.ts";
import { mustUseTwoFactor, ownTwoFactorCan } from "../../access/policies/two-factor.ts";
import type { Auth } from "../../auth/auth.ts";
import type { Db } from "../../db/client.ts";
import { companies, twoFactors, users } from "../../db/schema.ts";
import { AppError, validation } from "../../errors.ts";
import type { TwoFactorStatus } from "../../../shared/schemas/auth.ts";
import type { AuthResponse } from "./auth-response.ts";
import { UnreadableSecondFactor } from "../../auth/totp-steps.ts";

/** The signed-in user's two-factor state: on or not, an enrolment waiting for its first code, required. */
export async function loadOwnTwoFactor(db: Db, actor: Actor) {
  const [row] = await db
    .select({ user: users, requireTwoFactor: companies.requireTwoFactor, verified: twoFactors.verified })
    .from(users)
    .leftJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(twoFactors, eq(twoFactors.userId, users.id))
    .where(eq(users.id, userIdOf(actor)));
  if (!row) throw new AppError(401, "UNAUTHENTICATED", "Not authenticated.");
  return {
    enabled: row.user.twoFactorEnabled,
    /** Enrolment started (secret made), not yet confirmed with a code. */
    isPending: row.verified === false,
    required: mustUseTwoFactor(row.user, { requireTwoFactor: row.requireTwoFactor ?? false }),
  };
}

/** The account page's view: state, unused recovery codes, and what the user may do. */
export async function presentOwnTwoFactor(db: Db, auth: Auth, actor: Actor): Promise<TwoFactorStatus> {
  const state = await loadOwnTwoFactor(db, actor);
  return {
    enabled: state.enabled,
    required: state.required,
    recoveryCodesLeft: state.enabled ? (await recoveryCodesOf(auth, userIdOf(actor))).length : null,
    can: ownTwoFactorCan(actor, state),
  };
}

/**
 * The user's unused recovery codes, decrypted by better-auth (server-only endpoint). Codes stored
 * under another SESSION_SECRET answer UnreadableSecondFactor (409 with what to do), not a 500.
 */
export async function recoveryCodesOf(auth: Auth, userId: string): Promise<string[]> {
  try {
    const res = await auth.api.viewBackupCodes({ body: { userId } });
    return res.backupCodes;
  } catch (err) {
    // better-auth's own refusals (APIError) carry a status; a failed decryption is a bare Error.
    if (err && typeof err === "object" && "statusCode" in err) throw err;
    throw new UnreadableSecondFactor(err, userId);
  }
}

/** better-auth's "wrong password" as our field error; anything else unexpected is a 500. */
export function passwordProblem(result: AuthResponse<unknown>): AppError {
  if (result.code === "INVALID_PASSWORD") return validation({ password: "The password is not correct." });
  return new AppError(500, "INTERNAL", "Something went wrong. Please try again.");
}
