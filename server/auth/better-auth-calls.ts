import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Calls into better-auth, counted so that its AsyncLocalStorage stores are switched off between
 * them (decision 0018).
 *
 * better-auth runs each of its endpoints inside stores of its own (the endpoint's context, the
 * request state, the adapter's transaction), kept on one object per process. Before Node 24 an
 * AsyncLocalStorage is built on async hooks: its first run() turns on a promise hook that every
 * promise of the process pays for as long as any store stays enabled. So after the first sign-in,
 * every request paid, although no request but sign-in, sign-out, two-factor and impersonation ever
 * reaches better-auth (the session is read by our own query, session.ts): about 7 % of a permit
 * detail's time (docs/PERFORMANCE.md). Node 24 keeps the context with each promise instead, and
 * pays nothing either way.
 *
 * Every call goes through withinBetterAuth(): when the last call in flight settles, the stores
 * are disabled, which turns the hook off until the next call runs them again. Nothing of a call
 * outlives it (better-auth awaits its background work unless given a handler for it; we give
 * none), and a call that starts while another is in flight keeps the stores on for both.
 *
 * Only where the hook exists: Node 24 builds AsyncLocalStorage on AsyncContextFrame (each promise
 * carries its context; no promise hook), unless started with --no-async-context-frame. There the
 * counting and switching off are skipped: there is nothing to turn off (decision 0021). Drop this
 * file when Node 20 and 22 are no longer supported.
 */
export const STORES_USE_PROMISE_HOOK =
  Number(process.versions.node.split(".")[0]) < 24 ||
  [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)].includes(
    "--no-async-context-frame",
  );

let inFlight = 0;

/** Runs `call`, which calls into better-auth (its API or its internal adapter), counted. */
export async function withinBetterAuth<T>(call: () => Promise<T>): Promise<T> {
  if (!STORES_USE_PROMISE_HOOK) return call();
  inFlight++;
  try {
    return await call();
  } finally {
    if (--inFlight === 0) disableBetterAuthStores();
  }
}

/** Where better-auth keeps its stores: one object per process, whichever copy of it is loaded. */
const BETTER_AUTH_GLOBAL = Symbol.for("better-auth:global");

function disableBetterAuthStores(): void {
  const global = (globalThis as { [BETTER_AUTH_GLOBAL]?: { context?: Record<string, unknown> } })[
    BETTER_AUTH_GLOBAL
  ];
  for (const value of Object.values(global?.context ?? {})) {
    if (value instanceof AsyncLocalStorage) value.disable();
  }
}

/** better-auth's `auth.api` with each of its endpoints called through withinBetterAuth(). */
export function countedApi<Api extends object>(api: Api): Api {
  const counted = new Map<PropertyKey, unknown>();
  return new Proxy(api, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== "function") return value;
      let fn = counted.get(key);
      if (!fn) {
        fn = (...args: unknown[]) =>
          withinBetterAuth(async () => (value as (...a: unknown[]) => unknown).apply(target, args));
        counted.set(key, fn);
      }
      return fn;
    },
  });
}
