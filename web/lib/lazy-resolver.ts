import { useEffect } from "react";
import type { FieldValues, Resolver } from "react-hook-form";

export type LazyResolver<T extends FieldValues> = Resolver<T> & {
  /** Start loading the validation code ahead of the first check (on focus, on idle). */
  preload: () => void;
};

/**
 * A react-hook-form resolver whose code (zod and the schema) is fetched on first use. Only
 * the sign-in and reset screens need this: they are the first page a visitor loads, and
 * zod is about a seventh of its JavaScript. Feature forms, already lazy chunks, import
 * zodResolver directly.
 */
export function lazyResolver<T extends FieldValues>(load: () => Promise<Resolver<T>>): LazyResolver<T> {
  let pending: Promise<Resolver<T>> | undefined;
  const get = () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined; // let the next attempt retry a failed download
      throw error;
    });
    return pending;
  };
  const resolver = (async (values, context, options) =>
    (await get())(values, context, options)) as LazyResolver<T>;
  resolver.preload = () => void get().catch(() => undefined);
  return resolver;
}

/** Preloads a lazy resolver once the page has rendered and the browser is idle. */
export function usePreloadWhenIdle(resolver: { preload: () => void }): void {
  useEffect(() => {
    if (typeof window.requestIdleCallback === "function") {
      const handle = window.requestIdleCallback(resolver.preload, { timeout: 2000 });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = window.setTimeout(resolver.preload, 300);
    return () => window.clearTimeout(timer);
  }, [resolver]);
}
