import type { FastifyInstance } from "fastify";
import { startBackgroundRunner } from "../../http/background-runner.ts";
import { sendDueWebhooks, type DispatchContext } from "./dispatcher.ts";
import { recordedCount } from "./emit.ts";

/** The dispatcher's context from the app's. */
export const dispatchContext = (app: FastifyInstance): DispatchContext => ({
  db: app.ctx.db,
  links: app.ctx.links,
  mailer: app.ctx.mailer,
  publicUrl: app.ctx.config.publicUrl,
  allowPrivate: app.ctx.config.WEBHOOKS_ALLOW_PRIVATE,
  log: app.log,
});

/**
 * The app's dispatcher (WEBHOOK_DISPATCH=on, whatever SCHEDULER says): a run when the app is
 * ready, right after a request that recorded an event, and every WEBHOOK_POLL_MS (retries, and the
 * events other servers or the scheduler recorded); one run at a time per app; the app's close waits
 * for the attempts under way (each at most 5 s).
 */
export function startWebhookDispatcher(app: FastifyInstance): void {
  const { config } = app.ctx;
  if (config.WEBHOOK_DISPATCH === "off") return;
  const ctx = dispatchContext(app);
  startBackgroundRunner(app, {
    name: "the webhook dispatcher",
    pollMs: config.WEBHOOK_POLL_MS,
    pending: recordedCount,
    run: (shouldStop) => sendDueWebhooks(ctx, { shouldStop }),
  });
}
