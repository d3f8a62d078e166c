import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from "fastify";
import type { LinkTokenPaths } from "./link-tokens.ts";

/** A Fastify request, or a raw Node request (what fastify logs as `req` in a few places). */
interface LoggedRequest {
  method?: string;
  url?: string;
  ip?: string;
  socket?: { remoteAddress?: string } | null;
}

/**
 * The logger options the app is built with: the caller's (level, stream, transport), with the `req`
 * serializer replaced by one that never writes a link token. Every line that logs a request goes
 * through it: ours below, fastify's own (errors of 5xx answers, "incoming request" if switched on)
 * and any `request.log.x({ req: request })` a route writes.
 */
export function requestLogOptions(
  logger: FastifyServerOptions["logger"],
  links: LinkTokenPaths,
): FastifyServerOptions["logger"] {
  if (!logger) return false;
  const req = (r: LoggedRequest) => ({
    method: r.method,
    url: r.url === undefined ? undefined : links.redact(r.url),
    remoteAddress: r.ip ?? r.socket?.remoteAddress,
  });
  const base = logger === true ? {} : logger;
  return { ...base, serializers: { ...base.serializers, req } };
}

/**
 * One log line per request, when it completes (method, URL, address, status, time), instead of
 * fastify's two ("incoming request" and "request completed"): half the logging a request costs.
 * The URL is the serializer's: link tokens masked. Errors are still logged as fastify does.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else reply.log.info(line, "request completed");
  }

  /** Fastify's default 404 handler's line, which would write the raw URL into its message. */
  override routeNotFound(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.info({ req: request }, "route not found");
  }
}
