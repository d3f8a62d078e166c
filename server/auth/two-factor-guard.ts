import { and, eq, lt, ne, or, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { sessions, twoFactors } from "../db/schema.ts";
import { TWO_FACTOR_FAILURE_LIMIT } from "../../shared/domain/two-factor.ts";
import { matchingTotpSteps, storedTotpKey } from "./totp-steps.ts";

/**
 * What better-auth's two-factor plugin does not promise (decision 0011, issue 23): a TOTP step is
 * accepted once per user, wrong codes in a row are capped for good (not just slowed), and turning
 * two-factor sign-in on or off ends the user's other sessions. Every step is one conditional
 * statement, so parallel requests cannot get around it.
 */

export type CodeAttempt =
  | { kind: "attempt"; failures: number; secret: string; lastStep: number | null }
  | { kind: "locked" }
  /** Not enrolled, or enrolment not confirmed: better-auth gives its own answer. */
  | { kind: "none" };

/**
 * Counts an attempt at the sign-in code step before the code is checked: the count goes up first
 * and only a verified code brings it back to 0, so however many requests arrive at once, no more
 * than TWO_FACTOR_FAILURE_LIMIT are ever checked. `failures` is the count with this attempt.
 */
export async function beginCodeAttempt(db: Db, userId: string): Promise<CodeAttempt> {
  const [row] = await db
    .update(twoFactors)
    .set({ codeFailures: sql`${twoFactors.codeFailures} + 1` })
    .where(
      and(
        eq(twoFactors.userId, userId),
        eq(twoFactors.verified, true),
        lt(twoFactors.codeFailures, TWO_FACTOR_FAILURE_LIMIT),
      ),
    )
    .returning({
      failures: twoFactors.codeFailures,
      secret: twoFactors.secret,
      lastStep: twoFactors.lastTotpStep,
    });
  if (row) return { kind: "attempt", ...row };
  const [existing] = await db
    .select({ failures: twoFactors.codeFailures })
    .from(twoFactors)
    .where(and(eq(twoFactors.userId, userId), eq(twoFactors.verified, true)));
  return existing ? { kind: "locked" } : { kind: "none" };
}

/** Takes an attempt back that never checked a code (the server could not read the user's secret). */
export async function undoCodeAttempt(db: Db, userId: string): Promise<void> {
  await db
    .update(twoFactors)
    .set({ codeFailures: sql`greatest(${twoFactors.codeFailures} - 1, 0)` })
    .where(eq(twoFactors.userId, userId));
}

/** A verified code of this user: the wrong ones before it no longer count. */
export async function clearCodeFailures(db: Db, userId: string): Promise<void> {
  await db.update(twoFactors).set({ codeFailures: 0 }).where(eq(twoFactors.userId, userId));
}

export type StepClaim = "claimed" | "wrong" | "used";

/**
 * Checks an authenticator code against the user's stored (encrypted) secret and claims its time
 * step: "claimed" when the code is right and its step later than any accepted before (now taken),
 * "used" when it is right but its step was already accepted (a replay, or a second request with the
 * same code), "wrong" otherwise. Throws UnreadableSecondFactor when the secret does not decrypt.
 */
export async function claimTotpStep(
  db: Db,
  secretConfig: Parameters<typeof storedTotpKey>[0],
  userId: string,
  storedSecret: string,
  code: string,
): Promise<StepClaim> {
  const key = await storedTotpKey(secretConfig, storedSecret, userId);
  const steps = matchingTotpSteps(key, code);
  if (!steps.length) return "wrong";
  for (const step of steps) {
    const claimed = await db
      .update(twoFactors)
      .set({ lastTotpStep: step })
      .where(
        and(
          eq(twoFactors.userId, userId),
          or(isNull(twoFactors.lastTotpStep), lt(twoFactors.lastTotpStep, step)),
        ),
      )
      .returning({ id: twoFactors.id });
    if (claimed.length) return "claimed";
  }
  return "used";
}

/** The user's stored secret (sign-in, or an enrolment waiting for its first code). */
export async function storedTotpSecret(db: Db, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ secret: twoFactors.secret })
    .from(twoFactors)
    .where(eq(twoFactors.userId, userId));
  return row?.secret ?? null;
}

/**
 * Ends every session of the user but the one `keep` names: the session better-auth just issued to
 * the request that turned two-factor sign-in on or off (its token), or, just before, the request's
 * own session (its id). A session that signed in with the password alone does not become a
 * two-factor session, and one that passed a second factor is not left behind when it is turned
 * off. With nothing to keep, every session ends.
 */
export async function endOtherSessions(
  db: Db,
  userId: string,
  keep: { token: string | null } | { id: string },
): Promise<number> {
  // The user's own sessions and those the user opened as someone else (as removeTwoFactor does).
  const mine = or(eq(sessions.userId, userId), eq(sessions.impersonatedBy, userId));
  const kept =
    "id" in keep ? ne(sessions.id, keep.id) : keep.token ? ne(sessions.token, keep.token) : undefined;
  const ended = await db
    .delete(sessions)
    .where(kept ? and(mine, kept) : mine)
    .returning({ id: sessions.id });
  return ended.length;
}
