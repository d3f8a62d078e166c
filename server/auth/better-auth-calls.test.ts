import { AsyncLocalStorage, executionAsyncId } from "node:async_hooks";
import { describe, expect, it } from "vitest";
import { useTestContext } from "../test-support/harness.ts";
import { STORES_USE_PROMISE_HOOK, withinBetterAuth } from "./better-auth-calls.ts";

const t = useTestContext();

/**
 * Whether a promise hook is on: with one, each promise continuation runs in an async context of its
 * own; without, they all run in the one that awaited (Node's default, which costs nothing).
 */
async function promisesTracked(): Promise<boolean> {
  await null;
  const first = executionAsyncId();
  await null;
  return executionAsyncId() !== first;
}

/** better-auth's stores live on this object; a test adds one of its own beside them. */
function betterAuthContext(): Record<string, unknown> {
  const key = Symbol.for("better-auth:global");
  const global = globalThis as unknown as Record<symbol, { context: Record<string, unknown> }>;
  global[key] ??= { context: {} } as never;
  return global[key]!.context;
}

describe("calls into better-auth (decision 0018)", () => {
  it("leave no promise hook on after sign-in, impersonation and sign-out", async () => {
    const company = await t.make.company();
    const user = await t.make.user({ role: "company-admin", companyId: company.id });
    const superAdmin = await t.make.user({ role: "super-admin" });
    expect(await promisesTracked()).toBe(false);

    // Each of these runs better-auth's endpoints, in its stores.
    const api = await t.signIn(user);
    expect((await api.get("/api/me")).statusCode).toBe(200);
    expect(await promisesTracked()).toBe(false);

    const sa = await t.signIn(superAdmin);
    expect((await sa.post("/api/impersonation", { userId: user.id })).statusCode).toBe(200);
    expect(await promisesTracked()).toBe(false);

    expect((await api.post("/api/auth/sign-out")).statusCode).toBe(204);
    expect(await promisesTracked()).toBe(false);
    // Signed out for real: the stores being off changed nothing of what better-auth did.
    expect((await api.get("/api/me")).statusCode).toBe(401);
  });

  it("keeps the stores on while a call is still in flight, and off once every call has settled", async () => {
    const store = new AsyncLocalStorage<string>();
    const context = betterAuthContext();
    context.testStore = store;
    try {
      let releaseFirst!: () => void;
      const firstMayEnd = new Promise<void>((resolve) => (releaseFirst = resolve));
      const first = withinBetterAuth(() =>
        store.run("first", async () => {
          await firstMayEnd;
          return store.getStore();
        }),
      );
      // A second call starts and ends while the first waits: the first keeps its store.
      expect(await withinBetterAuth(() => store.run("second", async () => store.getStore()))).toBe("second");
      // The stores are still on: on Node 20 and 22 that is the promise hook; Node 24's stores have
      // none (AsyncContextFrame), and the first call's store is all there is to see (below).
      expect(await promisesTracked()).toBe(STORES_USE_PROMISE_HOOK);
      releaseFirst();
      expect(await first).toBe("first");
      expect(await promisesTracked()).toBe(false);

      // A call that fails is counted out too.
      await expect(
        withinBetterAuth(() =>
          store.run("failing", async () => {
            throw new Error("refused");
          }),
        ),
      ).rejects.toThrow("refused");
      expect(await promisesTracked()).toBe(false);

      // And the store works again at the next call.
      expect(await withinBetterAuth(() => store.run("again", async () => store.getStore()))).toBe("again");
    } finally {
      store.disable();
      delete context.testStore;
    }
  });
});
