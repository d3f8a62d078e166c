import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { CSRF_HEADER, CSRF_HEADER_VALUE } from "../../shared/domain/constants.ts";
import type { Actor } from "../access/actor.ts";
import { AppError, unauthenticated } from "../errors.ts";
import { resolveActor } from "./session.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route needs no session (sign-in, health, calendar feed). */
    isPublic?: boolean;
    /** The route answers while the user must still reset the password (the reset, sign-out). */
    allowDuringReset?: boolean;
  }
  interface FastifyRequest {
    actor: Actor | null;
  }
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The signed-in actor of a protected route (the hook has already refused requests without one). */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthenticated();
  return request.actor;
}

/**
 * Registered once for everything under /api, so a new route is protected unless it opts out
 * (CONVENTIONS.md). Order: CSRF defence, then the session, then the password-reset gate.
 */
export const authPlugin = fp(async (app: FastifyInstance) => {
  const { auth, db, config } = app.ctx;
  const allowedOrigin = new URL(config.publicUrl).origin;
  app.decorateRequest("actor", null);

  app.addHook("onRequest", async (request) => {
    if (!request.url.startsWith("/api/") || request.url.startsWith("/api/docs")) return;
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
    const actor = await resolveActor(auth, db, request);
    if (!actor) throw unauthenticated();
    request.actor = actor;
    if (actor.mustResetPassword && !routeConfig?.allowDuringReset) {
      throw new AppError(403, "PASSWORD_RESET_REQUIRED", "You must set a new password before continuing.");
    }
  });
});
