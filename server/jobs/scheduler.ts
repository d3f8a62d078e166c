import type { FastifyInstance } from "fastify";

/** In-process daily jobs (the reminder sweep arrives with the reminders feature). */
export function startScheduler(app: FastifyInstance): { stop(): void } {
  void app;
  return { stop: () => undefined };
}
