import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { CSRF_HEADER, CSRF_HEADER_VALUE } from "../../shared/domain/constants.ts";
import type { Actor } from "../access/actor.ts";
import { AppError, unauthenticated } from "../errors.ts";
import { bearerKeyOf, closedToKeys, KEY_FORBIDDEN, keyActorResolver } from "./api-key-auth.ts";
import { createSessionReader } from "./session.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route needs no session (sign-in, health, calendar feed). */
    isPublic?: boolean;
    /** The route answers while the user must still reset the password (the reset, sign-out). */
    allowDuringReset?: boolean;
    /** The route answers while the user must still enrol in two-factor sign-in (enrolment, /api/me). */
    allowDuringTwoFactorSetup?: boolean;
    /** An API key may not call the route (403), e.g. the keys' and users' admin (issue 30). */
    noApiKey?: boolean;
  }
  interface FastifyRequest {
    actor: Actor | null;
  }
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * True when the request is for the API. Decided by the route the router matched, never by the raw
 * URL: the router decodes percent-escapes (`/%61pi/...` matches `/api/...`), so a check on the
 * string the client sent could be walked around. A request that matched no route counts when its
 * decoded path lies under /api/ (it gets 401 or a JSON 404, and reveals no route table). The API
 * docs (/api/docs) are API routes too and need a session like the rest.
 */
export function isApiRoute(request: FastifyRequest): boolean {
  const matched = request.routeOptions.url;
  if (matched) return matched.startsWith("/api/");
  return normalisedPath(request.url).startsWith("/api/");
}

/** The path as a router would see it: decoded, duplicate slashes folded, lower case. */
function normalisedPath(url: string): string {
  const path = url.split("?")[0] ?? "";
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape: judge the raw path.
  }
  return decoded.replace(/\/{2,}/g, "/").toLowerCase();
}

/** The signed-in actor of a protected route (the hook has already refused requests without one). */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthenticated();
  return request.actor;
}

/**
 * Registered once for everything under /api, so a new route is protected unless it opts out
 * (CONVENTIONS.md). Order: CSRF defence, then the session, then the password-reset gate, then the
 * two-factor set-up gate. A request with `Authorization: Bearer <key>` (issue 30) is an API key's:
 * no CSRF header (no cookie is involved, and a cross-site page cannot send that header without a
 * preflight we never allow), its session cookie ignored, the key's actor or 401, and 403 on the
 * routes closed to keys.
 */
export const authPlugin = fp(async (app: FastifyInstance) => {
  const { auth, db, config } = app.ctx;
  const allowedOrigin = new URL(config.publicUrl).origin;
  const sessions = await createSessionReader(auth, db);
  app.decorateRequest("actor", null);
  const keyActor = keyActorResolver(app);

  app.addHook("onRequest", async (request) => {
    if (!isApiRoute(request)) return;
    const key = bearerKeyOf(request);
    if (key !== null) {
      if (request.routeOptions.config?.isPublic) return;
      request.actor = await keyActor(request, key);
      if (closedToKeys(request)) throw new AppError(403, "FORBIDDEN", KEY_FORBIDDEN);
      return;
    }
    if (!SAFE_METHODS.has(request.method)) {
      // A cross-site form or fetch cannot set this header without a CORS preflight, which we never allow.
      if (request.headers[CSRF_HEADER] !== CSRF_HEADER_VALUE) {
        throw new AppError(403, "CSRF", "Missing or invalid request header; reload the page and try again.");
      }
      const origin = request.headers.origin;
      if (origin && origin !== allowedOrigin && origin !== `${request.protocol}://${request.host}`) {
        throw new AppError(403, "CSRF", "Cross-site request refused.");
      }
    }
    const routeConfig = request.routeOptions.config;
    if (routeConfig?.isPublic) return;
    const actor = await sessions.resolveActor(request);
    if (!actor) throw unauthenticated();
    request.actor = actor;
    if (actor.mustResetPassword && !routeConfig?.allowDuringReset) {
      throw new AppError(403, "PASSWORD_RESET_REQUIRED", "You must set a new password before continuing.");
    }
    if (actor.twoFactorSetupRequired && !routeConfig?.allowDuringTwoFactorSetup) {
      throw new AppError(
        403,
        "TWO_FACTOR_SETUP_REQUIRED",
        "You must set up two-factor authentication before continuing.",
      );
    }
  });
});
