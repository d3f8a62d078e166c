import { createHmac } from "node:crypto";
import type { FastifyReply } from "fastify";

/** Copies better-auth's Set-Cookie headers onto our reply. */
export function forwardCookies(res: Response, reply: FastifyReply) {
  const cookies = res.headers.getSetCookie();
  if (cookies.length) reply.header("set-cookie", cookies);
}

/** better-auth's session cookie: `permitrack.session_token`, with `__Secure-` in front over HTTPS. */
const isSessionCookie = (setCookie: string) => /^(__Secure-)?[^=]*\.session_token=/.test(setCookie);

/** The session token a Set-Cookie list sets (the signed value is `token.signature`), else null. */
export function sessionTokenOf(setCookies: string[]): string | null {
  const cookie = setCookies.find(isSessionCookie);
  if (!cookie) return null;
  const value = decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1).split(";")[0] ?? "");
  const dot = value.lastIndexOf(".");
  return dot > 0 ? value.slice(0, dot) : null;
}

/** better-auth's signature of a session token: HMAC-SHA256 of the token with the app secret. */
export const sessionTokenSignature = (token: string, secret: string) =>
  createHmac("sha256", secret).update(token).digest();

/**
 * The Set-Cookie list with the session cookie carrying `token` instead, signed as better-auth
 * signs it (HMAC-SHA256 of the token with the app secret, base64), attributes unchanged.
 */
export function withSessionToken(setCookies: string[], token: string, secret: string): string[] {
  const signature = sessionTokenSignature(token, secret).toString("base64");
  const value = encodeURIComponent(`${token}.${signature}`);
  return setCookies.map((cookie) => {
    if (!isSessionCookie(cookie)) return cookie;
    const eq = cookie.indexOf("=");
    const semi = cookie.indexOf(";");
    return `${cookie.slice(0, eq + 1)}${value}${semi >= 0 ? cookie.slice(semi) : ""}`;
  });
}
