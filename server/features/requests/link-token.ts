import { createHash, randomBytes } from "node:crypto";
import type { LinkSigner } from "../../auth/link-signer.ts";

// A document request's link token (decision 0028): 32 random bytes, base64url (43 characters, 256
// bits). The database holds its SHA-256 (hex) to find the request, and a sealed copy (link-signer)
// to e-mail the same link again; the token itself is never stored or logged.

const SEAL_PURPOSE = "document-request-link";
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** A new token and what the row keeps of it. */
export function newLinkToken(links: LinkSigner): { token: string; hash: string; sealed: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashLinkToken(token), sealed: links.seal(SEAL_PURPOSE, token) };
}

/** The SHA-256 (hex) a row is found by. */
export const hashLinkToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** Whether the text could be a token at all (anything else is unknown without a query). */
export const isLinkTokenShape = (token: string) => TOKEN_SHAPE.test(token);

/** The token again from the row's sealed copy; null when sealed under another SESSION_SECRET. */
export const unsealLinkToken = (links: LinkSigner, sealed: string | null) =>
  sealed ? links.unseal(SEAL_PURPOSE, sealed) : null;
