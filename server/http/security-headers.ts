import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyReply } from "fastify";
import fp from "fastify-plugin";
import helmet, { type HelmetOptions } from "helmet";

/** Stands in for a response's nonce while the headers are computed once at start. */
const NONCE_SLOT = "__PERMITRACK_CSP_NONCE__";

/** The Content-Security-Policy directives of every response (the SPA's page adds its nonce). */
function policy(nonce?: string): HelmetOptions {
  const withNonce = (sources: string[]) => (nonce ? [...sources, `'nonce-${nonce}'`] : sources);
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: withNonce(["'self'"]),
        styleSrc: withNonce(["'self'"]),
        // MUI and the charts set style attributes; scripts stay strictly same-origin.
        styleSrcAttr: ["'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  };
}

/** The headers helmet sets for these options, as name/value pairs (helmet's middleware is synchronous). */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let done = false;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
    done = true;
  });
  if (!done) throw new Error("helmet's middleware did not finish synchronously");
  return headers;
}

/** Every response's security headers, computed once. */
const staticHeaders = helmetHeaders(policy());
/** The SPA page's policy, its nonce still to fill in. */
const pagePolicy = helmetHeaders(policy(NONCE_SLOT))["content-security-policy"]!;

/**
 * Sets the SPA page's Content-Security-Policy with a fresh nonce for its inline style and script
 * tags, and returns the nonce to write into the page. Only the HTML page needs one: JSON, files and
 * assets carry the static policy, so an API request spends nothing on random bytes or on building
 * the policy (performance issue: helmet rebuilt all its headers, nonces included, per request).
 */
export function pageNonce(reply: FastifyReply): string {
  const nonce = randomBytes(16).toString("hex");
  reply.header("content-security-policy", pagePolicy.replaceAll(NONCE_SLOT, nonce));
  return nonce;
}

/**
 * helmet's security headers (strict CSP, nosniff, frame-ancestors 'none', HSTS, the
 * cross-origin policies...) on every response, computed once at start with helmet itself and set
 * as one object per response. A route may still set its own (the attachment and logo downloads'
 * sandbox policy, Swagger UI's page).
 */
export const securityHeaders = fp(
  async (app) => {
    app.addHook("onRequest", (_request, reply, done) => {
      reply.headers(staticHeaders);
      done();
    });
  },
  { name: "security-headers" },
);
