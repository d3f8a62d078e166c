import { createElement, lazy, useState, useSyncExternalStore, type ComponentType } from "react";

/**
 * A component whose code the first paint does not need (a picker's list, a menu, a tooltip):
 * fetched when the user shows intent (pointer over it, focus, touch) or opens it, so that the
 * first page's JavaScript stays small. Until it is here the caller shows a stand-in that looks the
 * same; every caller of one part switches once it has arrived.
 */
export interface OnDemand<P extends object> {
  /** Renders the part: only once `useIsLoaded` says it is here. */
  readonly Component: ComponentType<P>;
  /** Starts the download (once; a failed one is tried again on the next call). Never rejects. */
  load: () => Promise<void>;
  isLoaded: () => boolean;
  subscribe: (listener: () => void) => () => void;
}

export function onDemand<P extends object>(
  importer: () => Promise<{ default: ComponentType<P> }>,
): OnDemand<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<void> | undefined;
  const listeners = new Set<() => void>();
  return {
    Component: (props: P) => {
      if (!loaded) throw new Error("an on-demand part was rendered before its code arrived");
      return createElement(loaded, props);
    },
    load() {
      pending ??= importer().then(
        (module) => {
          loaded = module.default;
          for (const listener of listeners) listener();
        },
        () => {
          pending = undefined; // offline for a moment: the next intent asks again
        },
      );
      return pending;
    },
    isLoaded: () => loaded !== undefined,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Whether the part's code is here; re-renders the caller when it arrives (after any `load()`). */
export function useIsLoaded<P extends object>(part: OnDemand<P>): boolean {
  return useSyncExternalStore(part.subscribe, part.isLoaded, part.isLoaded);
}

/**
 * True from the first time `open` is true on: a lazily loaded dialog or menu is mounted when it
 * first opens and stays mounted after, so that it can play its closing transition.
 */
export function useHasOpened(open: boolean): boolean {
  const [hasOpened, setHasOpened] = useState(open);
  if (open && !hasOpened) setHasOpened(true);
  return hasOpened || open;
}

/**
 * React's lazy() for a part that is rendered only when opened (a dialog, a menu, a drawer), with
 * `preload` to fetch its code earlier, on intent (pointer over its button, focus, touch). `preload`
 * never rejects: if the fetch fails, lazy() asks again when the part is rendered.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- lazy()'s own bound: any component
export function lazyWithPreload<T extends ComponentType<any>>(importer: () => Promise<{ default: T }>) {
  return { Component: lazy(importer), preload: () => void importer().catch(() => undefined) };
}
