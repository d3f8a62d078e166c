/**
 * Two-factor sign-in (decision 0011): the code formats both the server and the sign-in form know.
 * Authenticator codes follow RFC 6238's defaults, which every authenticator app supports.
 */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;

/**
 * Wrong codes in a row (authenticator or recovery codes) after which the code step of sign-in is
 * locked until an admin resets the user's two-factor sign-in; a verified code clears the count.
 */
export const TWO_FACTOR_FAILURE_LIMIT = 20;
/** At this many wrong codes in a row the user gets an e-mail (someone may know the password). */
export const TWO_FACTOR_FAILURE_NOTICE = 3;

/**
 * Recovery codes: ten single-use codes of ten characters in two groups ("k7m2p-x9qrt"), lower case
 * and without look-alikes (no 0/o, 1/l/i), so a code copied from paper is typed right.
 */
export const RECOVERY_CODE_COUNT = 10;
export const RECOVERY_CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
export const RECOVERY_CODE_LENGTH = 10;

/** "k7m2p-x9qrt" from what a person typed: any case, with or without the hyphen or spaces. */
export function normalizeRecoveryCode(input: string): string {
  const bare = input.toLowerCase().replace(/[\s-]+/g, "");
  return bare.length === RECOVERY_CODE_LENGTH ? `${bare.slice(0, 5)}-${bare.slice(5)}` : bare;
}

/** "123456" from "123 456" or "123-456" (apps show the code in two groups). */
export const normalizeTotpCode = (input: string) => input.replace(/[\s-]+/g, "");

/** The secret of an otpauth:// URI, in the base32 an authenticator app accepts when typed in. */
export function manualKeyOf(otpauthUri: string): string {
  const query = otpauthUri.slice(otpauthUri.indexOf("?") + 1);
  return new URLSearchParams(query).get("secret") ?? "";
}
