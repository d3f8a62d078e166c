import type { FastifyInstance } from "fastify";

/**
 * A job that runs with the app, beside its requests (the document reader, issue 28; the webhook
 * dispatcher, issue 30): a run when the app is ready, after each response once `pending()` has
 * moved on (a request queued work), and every `pollMs`; one run at a time (a wake-up during a run
 * makes one more after it); the app's close waits for the run under way. `run` is told to stop
 * through its `shouldStop` once the app closes.
 */
export function startBackgroundRunner(
  app: FastifyInstance,
  opts: {
    /** What the error log line says stopped ("the document reader"). */
    name: string;
    pollMs: number;
    /** A counter the request handlers move when they queue work (read after each response). */
    pending: () => number;
    run: (shouldStop: () => boolean) => Promise<unknown>;
  },
): void {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let seen = opts.pending();
  let timer: NodeJS.Timeout | undefined;
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = opts
      .run(() => stopped)
      .then(() => undefined)
      .catch((err: unknown) => app.log.error({ err }, `${opts.name} stopped a run; the next one goes on`))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
  };
  app.addHook("onReady", async () => {
    timer = setInterval(run, opts.pollMs);
    timer.unref();
    run();
  });
  app.addHook("onResponse", async () => {
    const count = opts.pending();
    if (count === seen) return;
    seen = count;
    run();
  });
  app.addHook("onClose", async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  });
}
