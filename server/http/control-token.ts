import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { CONTROL_TOKEN_HEADER } from "../../shared/domain/constants.ts";

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * The local commands' way into the running server (`npm run reminders`, `npm run backup` on the
 * embedded database, whose data folder only the server may open): the control token main.ts writes
 * into the data folder's lock file, checked in constant time, and only from this machine.
 */
export function isLocalControlRequest(request: FastifyRequest, token: string | undefined): boolean {
  const presented = request.headers[CONTROL_TOKEN_HEADER];
  const remote = request.socket.remoteAddress ?? "";
  const isLoopback = remote === "127.0.0.1" || remote === "::1" || remote === "::ffff:127.0.0.1";
  if (!token || typeof presented !== "string" || !isLoopback) return false;
  return timingSafeEqual(digest(presented), digest(token));
}
