import { createHmac, timingSafeEqual } from "node:crypto";
import { symmetricDecrypt } from "better-auth/crypto";
import { AppError } from "../errors.ts";
import { TOTP_DIGITS, TOTP_PERIOD_SECONDS } from "./two-factor-codes.ts";

/**
 * Which TOTP time step a code belongs to (RFC 6238), so that each step is accepted once per user
 * (decision 0011, "single use"). better-auth's own check answers only yes or no, and yes any number
 * of times within the window; we find the step first and claim it in the database
 * (two-factor-guard.ts), then let better-auth do the rest.
 */

/** Steps accepted either side of now: the window better-auth uses (one step, 30 s, each way). */
export const TOTP_WINDOW = 1;

/** The current time step. */
export function totpStepAt(ms: number = Date.now()): number {
  return Math.floor(ms / 1000 / TOTP_PERIOD_SECONDS);
}

/** HOTP (RFC 4226) of a key for a counter. */
export function hotp(key: Buffer, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", key).update(message).digest();
  const offset = mac[mac.length - 1]! & 15;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(value).padStart(digits, "0");
}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
function base32Bytes(text: string): Buffer {
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of text.toUpperCase().replace(/=+$/, "")) {
    const index = BASE32.indexOf(ch);
    if (index < 0) throw new Error("not base32");
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The HMAC key of a decrypted secret, as better-auth reads it (its "base32:" form, or UTF-8 bytes). */
export function totpKey(secret: string): Buffer {
  return secret.startsWith("base32:") ? base32Bytes(secret.slice(7)) : Buffer.from(secret, "utf8");
}

/**
 * The steps within the window whose code this is, oldest first (almost always one; none when the
 * code is wrong for every step). Every step is compared in constant time, whatever matched.
 */
export function matchingTotpSteps(key: Buffer, code: string, now: number = Date.now()): number[] {
  const at = totpStepAt(now);
  const given = Buffer.from(code);
  const found: number[] = [];
  for (let step = at - TOTP_WINDOW; step <= at + TOTP_WINDOW; step++) {
    const expected = Buffer.from(hotp(key, step));
    if (given.length === expected.length && timingSafeEqual(given, expected)) found.push(step);
  }
  return found;
}

export const SECOND_FACTOR_UNREADABLE =
  "Your two-factor authentication cannot be checked: it was set up under a server key that has since changed. Ask your administrator to reset your two-factor authentication.";

/**
 * Thrown when a stored second factor does not decrypt: SESSION_SECRET is not the one it was stored
 * under (docs/SECURITY.md, "Rotating SESSION_SECRET"). Answers 409 with a message that says what to
 * do; whoever catches it logs it for the operator.
 */
export class UnreadableSecondFactor extends AppError {
  constructor(reason: unknown, userId: string) {
    super(409, "TWO_FACTOR_UNREADABLE", SECOND_FACTOR_UNREADABLE, undefined, undefined, {
      message:
        "two-factor secret does not decrypt: SESSION_SECRET differs from the one it was stored under (docs/SECURITY.md, rotating SESSION_SECRET)",
      details: { userId, reason: String(reason) },
    });
  }
}

/**
 * The HMAC key of a user's stored TOTP secret: decrypted with better-auth's key (derived from
 * SESSION_SECRET) and read as better-auth reads it. UnreadableSecondFactor when it cannot be.
 */
export async function storedTotpKey(
  secretConfig: Parameters<typeof symmetricDecrypt>[0]["key"],
  stored: string,
  userId: string,
): Promise<Buffer> {
  try {
    return totpKey(await symmetricDecrypt({ key: secretConfig, data: stored }));
  } catch (err) {
    throw new UnreadableSecondFactor(err, userId);
  }
}
