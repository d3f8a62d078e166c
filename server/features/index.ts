import type { FastifyInstance } from "fastify";

/**
 * Registers every feature's routes. Each feature lives in its own folder and exposes one
 * `<feature>Routes` plugin; features call each other's services, never their internals.
 */
export async function registerFeatures(app: FastifyInstance) {
  void app;
}
