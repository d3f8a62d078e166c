import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { TOTP_DIGITS, TOTP_PERIOD_SECONDS } from "../../shared/domain/two-factor.ts";

/**
 * What an authenticator app shows right now for a secret, computed with better-auth's own OTP
 * helper. `secret` is the raw secret better-auth stores (the factories' `totpSecret`), or, with
 * `fromManualKey`, the base32 key the account page shows for typing into an app.
 */
export function totpCode(secret: string, opts: { fromManualKey?: boolean } = {}): Promise<string> {
  const key = opts.fromManualKey ? base32.decode(secret.replace(/\s+/g, "").toUpperCase()) : secret;
  return createOTP(key, { digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS }).totp();
}

/** A code that is wrong for the secret right now (and in the neighbouring time steps). */
export async function wrongTotpCode(secret: string, opts: { fromManualKey?: boolean } = {}): Promise<string> {
  const right = await totpCode(secret, opts);
  return String((Number(right) + 500_000) % 1_000_000).padStart(TOTP_DIGITS, "0");
}
