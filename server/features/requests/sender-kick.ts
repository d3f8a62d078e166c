import type { FastifyInstance } from "fastify";
import { sendDueRequestDeliveries } from "./request-deliveries.ts";

// The sender runs right after a write that recorded an e-mail commits, without holding up the
// answer (an SMTP server that hangs must not hang the page); runs are chained, one at a time per
// app. Whatever fails here stays pending for the scheduler's next tick.

const running = new WeakMap<object, Promise<void>>();

/** Starts a send run after the current one (if any); never rejects. */
export function kickRequestSender(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  const next = (running.get(ctx) ?? Promise.resolve()).then(async () => {
    try {
      await sendDueRequestDeliveries(ctx.db, ctx.mailer, {
        publicUrl: ctx.config.publicUrl,
        links: ctx.links,
      });
    } catch (err) {
      app.log.error({ err }, "request e-mails could not be sent now; the scheduler tries again");
    }
  });
  running.set(ctx, next);
  return next;
}

/** Resolves once the runs started so far are done (the app's close waits for it; tests too). */
export const requestSenderIdle = (app: FastifyInstance): Promise<void> =>
  running.get(app.ctx) ?? Promise.resolve();
