import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Signs what a link that works without sign-in carries (a reminder's 'Acknowledge' link today).
 * Bound once to the app secret where the app is composed (app.ts: `ctx.links`; the reminders
 * command builds its own from the same secret), so no code path can sign or check a link without
 * it: there is no optional secret to forget. Each purpose signs with a key of its own, derived from
 * the secret, so a signature made for one kind of link is worth nothing for another.
 */
export interface LinkSigner {
  /** The first 16 bytes of HMAC-SHA256(purpose key, payload), base64url (22 characters). */
  sign(purpose: string, payload: string): string;
  /** Whether `signature` is `sign(purpose, payload)`, in constant time. */
  verify(purpose: string, payload: string, signature: string): boolean;
}

export function createLinkSigner(secret: string): LinkSigner {
  if (!secret) throw new Error("A link signer needs the app secret (SESSION_SECRET)");
  const keys = new Map<string, Buffer>();
  const keyOf = (purpose: string) => {
    let key = keys.get(purpose);
    if (!key) keys.set(purpose, (key = createHmac("sha256", secret).update(purpose).digest()));
    return key;
  };
  const sign = (purpose: string, payload: string) =>
    createHmac("sha256", keyOf(purpose)).update(payload).digest().subarray(0, 16).toString("base64url");
  return {
    sign,
    verify(purpose, payload, signature) {
      const expected = Buffer.from(sign(purpose, payload));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
