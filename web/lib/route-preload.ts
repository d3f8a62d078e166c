type Preloader = (pathname: string) => Promise<void>;
let preloader: Preloader = async () => undefined;

/** Installed by web/app/router.tsx, which knows the route table. */
export function setRoutePreloader(next: Preloader): void {
  preloader = next;
}

/**
 * Download the code of the screen at `pathname` (and of its layouts) before navigating there,
 * e.g. on hover or while a form submits. Never rejects: a failed preload is retried on render.
 */
export function preloadRoute(pathname: string): Promise<void> {
  return preloader(pathname).catch(() => undefined);
}
