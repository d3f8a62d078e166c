import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

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
  /**
   * `plaintext` encrypted (AES-256-GCM, a fresh IV) under the purpose's key, for a secret the app
   * must send again later but must not keep readable at rest (a document request's link token,
   * issue 27: the database holds its SHA-256 to look it up, and this to e-mail it again).
   */
  seal(purpose: string, plaintext: string): string;
  /** What `seal(purpose, …)` sealed; null when it was sealed under another secret or altered. */
  unseal(purpose: string, sealed: string): string | null;
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
  // The encryption key of a purpose is not its signing key: a key serves one use.
  const sealKey = (purpose: string) => keyOf(`seal:${purpose}`);
  return {
    sign,
    seal(purpose, plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", sealKey(purpose), iv);
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
    },
    unseal(purpose, sealed) {
      if (!sealed.startsWith("v1.")) return null;
      const bytes = Buffer.from(sealed.slice(3), "base64url");
      if (bytes.length < 28) return null;
      try {
        const decipher = createDecipheriv("aes-256-gcm", sealKey(purpose), bytes.subarray(0, 12));
        decipher.setAuthTag(bytes.subarray(12, 28));
        return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
      } catch {
        return null;
      }
    },
    verify(purpose, payload, signature) {
      const expected = Buffer.from(sign(purpose, payload));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
