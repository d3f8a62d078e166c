import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { TOTP_DIGITS, TOTP_PERIOD_SECONDS } from "../../shared/domain/two-factor.ts";

const keyOf = (secret: string, fromManualKey?: boolean) =>
  fromManualKey ? base32.decode(secret.replace(/\s+/g, "").toUpperCase()) : secret;

/**
 * What an authenticator app shows right now for a secret, computed with better-auth's own OTP
 * helper. `secret` is the raw secret better-auth stores (the factories' `totpSecret`), or, with
 * `fromManualKey`, the base32 key the account page shows for typing into an app.
 */
export function totpCode(secret: string, opts: { fromManualKey?: boolean } = {}): Promise<string> {
  return createOTP(keyOf(secret, opts.fromManualKey), {
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  }).totp();
}

/** The code of one time step (an app shows step `now + 1` thirty seconds from now). */
export function totpCodeAtStep(secret: string, step: number, opts: { fromManualKey?: boolean } = {}) {
  return createOTP(keyOf(secret, opts.fromManualKey), {
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  }).hotp(step);
}

/** The current time step. */
export const currentTotpStep = () => Math.floor(Date.now() / 1000 / TOTP_PERIOD_SECONDS);

/**
 * A code the server will accept now for a user whose last accepted step is `lastStep` (each step is
 * accepted once): the current step's, else the next one's (inside the server's window), else it
 * waits for the step after. Like a person who waits for the next code after using one.
 */
export async function unusedTotpCode(
  secret: string,
  lastStep: number | null,
  opts: { fromManualKey?: boolean } = {},
): Promise<string> {
  const step = Math.max(currentTotpStep(), (lastStep ?? 0) + 1);
  while (step > currentTotpStep() + 1) await new Promise((resolve) => setTimeout(resolve, 250));
  return totpCodeAtStep(secret, step, opts);
}

/** Whether a code can be accepted right now for a user whose last accepted step is `lastStep`. */
export const hasUnusedTotpStep = (lastStep: number | null) => (lastStep ?? 0) + 1 <= currentTotpStep() + 1;

/** A code that is wrong for the secret right now (and in the neighbouring time steps). */
export async function wrongTotpCode(secret: string, opts: { fromManualKey?: boolean } = {}): Promise<string> {
  const right = await totpCode(secret, opts);
  return String((Number(right) + 500_000) % 1_000_000).padStart(TOTP_DIGITS, "0");
}
