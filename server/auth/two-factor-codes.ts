import { randomInt } from "node:crypto";
import {
  RECOVERY_CODE_ALPHABET,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODE_LENGTH,
} from "../../shared/domain/two-factor.ts";

export { TOTP_DIGITS, TOTP_PERIOD_SECONDS } from "../../shared/domain/two-factor.ts";

/**
 * A fresh set of recovery codes for better-auth's two-factor plugin, which stores them encrypted and
 * strikes each one out when it is used. About 49 bits each: plenty behind the sign-in rate limits.
 */
export function generateRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let code = "";
    for (let i = 0; i < RECOVERY_CODE_LENGTH; i++)
      code += RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)];
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}
