import { eq, or } from "drizzle-orm";
import { constantTimeEqual, makeSignature, symmetricEncrypt } from "better-auth/crypto";
import type { Db } from "../db/client.ts";
import { sessions, twoFactors, users } from "../db/schema.ts";
import type { Auth } from "./auth.ts";
import { generateRecoveryCodes } from "./two-factor-codes.ts";

/**
 * Two-factor sign-in around better-auth's plugin (decision 0011): the few things its endpoints do
 * not do for us. The endpoints themselves are called by features/auth.
 */

function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * The user whose sign-in waits for a code: better-auth's signed two-factor cookie names a
 * verification row whose value is the user id. Null when the cookie is missing, forged or expired.
 * The code step's per-account rate limit keys on it.
 */
export async function pendingSignInUserId(
  auth: Auth,
  cookieHeader: string | undefined,
): Promise<string | null> {
  const ctx = await auth.$context;
  const signed = cookieValue(cookieHeader, ctx.createAuthCookie("two_factor").name);
  if (!signed) return null;
  const dot = signed.lastIndexOf(".");
  if (dot < 1) return null;
  const identifier = signed.slice(0, dot);
  if (!constantTimeEqual(signed.slice(dot + 1), await makeSignature(identifier, ctx.secret))) return null;
  const row = await ctx.internalAdapter.findVerificationValue(identifier);
  if (!row || new Date(row.expiresAt).getTime() <= Date.now()) return null;
  return row.value;
}

/**
 * The Cookie header the code step passes on to better-auth: the pending sign-in's cookie and the
 * "don't remember me" one, nothing else. With a session cookie along, better-auth would check the
 * code of that session's user instead of the pending one (issue 23, finding 6).
 */
export async function pendingCookieHeader(auth: Auth, cookieHeader: string | undefined): Promise<string> {
  const ctx = await auth.$context;
  const names = [ctx.createAuthCookie("two_factor").name, ctx.authCookies.dontRememberToken.name];
  return (cookieHeader ?? "")
    .split(";")
    .map((part) => part.trim())
    .filter((part) => names.includes(part.slice(0, part.indexOf("="))))
    .join("; ");
}

/**
 * Enrols a user with a known TOTP secret, already confirmed, and returns the recovery codes. For
 * the demo seed and the test factories, whose users must be able to sign in without a phone; people
 * enrol through the account page.
 */
export async function enrolWithSecret(
  auth: Auth,
  db: Db,
  userId: string,
  secret: string,
  recoveryCodes: string[] = generateRecoveryCodes(),
): Promise<string[]> {
  const { secretConfig } = await auth.$context;
  const values = {
    secret: await symmetricEncrypt({ key: secretConfig, data: secret }),
    backupCodes: await symmetricEncrypt({ key: secretConfig, data: JSON.stringify(recoveryCodes) }),
    verified: true,
    failedVerificationCount: 0,
    lockedUntil: null,
  };
  await db
    .insert(twoFactors)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: twoFactors.userId, set: values });
  await db.update(users).set({ twoFactorEnabled: true }).where(eq(users.id, userId));
  return recoveryCodes;
}

/**
 * Removes a user's second factor (the admin's reset for a lost phone): the secret and recovery
 * codes go, and so do the user's sessions, so whoever holds the old phone or a session is out.
 * Returns whether there was anything to remove. Runs in the caller's transaction.
 */
export async function removeTwoFactor(tx: Db, userId: string): Promise<boolean> {
  const removed = await tx
    .delete(twoFactors)
    .where(eq(twoFactors.userId, userId))
    .returning({ id: twoFactors.id });
  await tx.update(users).set({ twoFactorEnabled: false }).where(eq(users.id, userId));
  await tx.delete(sessions).where(or(eq(sessions.userId, userId), eq(sessions.impersonatedBy, userId)));
  return removed.length > 0;
}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** The key to type into an authenticator app for a secret (RFC 4648 base32 of its bytes, unpadded). */
export function manualKeyOfSecret(secret: string): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const byte of Buffer.from(secret, "utf8")) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/**
 * The secret behind a key typed into an authenticator app (the inverse of manualKeyOfSecret):
 * base32, spaces and case ignored. Null when it is not base32, or its bytes are not text (the
 * secrets this app makes are; a key from elsewhere may not be).
 */
export function secretOfManualKey(key: string): string | null {
  const clean = key
    .replace(/[\s-]+/g, "")
    .toUpperCase()
    .replace(/=+$/, "");
  if (!clean || !/^[A-Z2-7]+$/.test(clean)) return null;
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of clean) {
    value = ((value << 5) | BASE32.indexOf(ch)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    return null;
  }
}
