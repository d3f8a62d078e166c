import type { LinkSigner } from "../../auth/link-signer.ts";

/**
 * The 'Acknowledge' link of a reminder e-mail: a token naming one permit, one recipient and the
 * term and countdown date the reminder was about, signed by the app's link signer (a key derived
 * from the app secret for this one purpose). It acknowledges nothing else, and it dies with the term: once the permit is
 * renewed or extended (another term or date) the token no longer matches and is refused.
 *
 * Compact, to fit a path segment: `permit.recipient.term.yyyymmdd.signature`, the ids as base64url
 * of their 16 bytes and the signature as the first 16 bytes of an HMAC-SHA256 (about 80 characters).
 */
export interface AcknowledgeClaim {
  permitId: string;
  recipientUserId: string;
  termNo: number;
  /** The date the reminders counted down to (renew-by or expiration), "YYYY-MM-DD". */
  dueOn: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const B64_ID = /^[A-Za-z0-9_-]{22}$/;

const packId = (uuid: string) => Buffer.from(uuid.replace(/-/g, ""), "hex").toString("base64url");
function unpackId(packed: string): string | null {
  if (!B64_ID.test(packed)) return null;
  const hex = Buffer.from(packed, "base64url").toString("hex");
  const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return UUID.test(uuid) ? uuid : null;
}

const PURPOSE = "permitrack:acknowledge-link:v1";

const payloadOf = (c: AcknowledgeClaim) =>
  `${packId(c.permitId)}.${packId(c.recipientUserId)}.${c.termNo}.${c.dueOn.replace(/-/g, "")}`;

/** The token for a link. */
export function signAcknowledgeToken(links: LinkSigner, claim: AcknowledgeClaim): string {
  const payload = payloadOf(claim);
  return `${payload}.${links.sign(PURPOSE, payload)}`;
}

/** The claim of a well-formed, correctly signed token, else null (never throws). */
export function verifyAcknowledgeToken(links: LinkSigner, token: string): AcknowledgeClaim | null {
  const parts = token.split(".");
  if (parts.length !== 5) return null;
  const [permit = "", recipient = "", term = "", day = "", signature = ""] = parts;
  const permitId = unpackId(permit);
  const recipientUserId = unpackId(recipient);
  if (!permitId || !recipientUserId || !/^\d{1,6}$/.test(term) || !/^\d{8}$/.test(day)) return null;
  const claim = {
    permitId,
    recipientUserId,
    termNo: Number(term),
    dueOn: `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}`,
  };
  return links.verify(PURPOSE, payloadOf(claim), signature) ? claim : null;
}
