import { createHmac, randomBytes } from "node:crypto";

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com, issue 30): the secret is `whsec_` and
 * the base64 of 24 random bytes; each attempt is signed as `v1,` + base64(HMAC-SHA256(key,
 * "<webhook-id>.<webhook-timestamp>.<body>")), the key being the secret's bytes.
 */

/** The purpose the secret is sealed under (ctx.links.seal / unseal). */
export const SECRET_SEAL_PURPOSE = "webhook-secret";

export function newWebhookSecret(): { secret: string; prefix: string } {
  const secret = `whsec_${randomBytes(24).toString("base64")}`;
  return { secret, prefix: secret.slice(0, 10) };
}

export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

/** The three headers of one attempt: a fresh timestamp, the delivery's one webhook-id. */
export function signedHeaders(secret: string, id: string, body: string, now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatureOf(secret, id, timestamp, body),
  };
}
