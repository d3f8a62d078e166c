import { useEffect, useRef } from "react";

/**
 * After a move to another screen the focus goes to its heading (issue 25: Tab reached Renew after
 * 16 stops, the focus left behind on the link that was followed). The root layout notes each
 * location; the next page heading (h1, tabIndex -1) to mount on that path takes the focus once,
 * unless the screen gave it to one of its own fields (autoFocus).
 * The first screen of a visit is left alone (the browser starts at the top of the document).
 */
let lastPath: string | null = null;
let focusPending: string | null = null;

/** Called by the root layout as it renders: a new path asks its heading to take the focus. */
export function noteLocation(pathname: string): void {
  if (lastPath !== null && lastPath !== pathname) focusPending = pathname;
  lastPath = pathname;
}

/** A page heading's ref: focused when it mounts on the path just moved to. */
export function useFocusOnArrival<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (focusPending === null || focusPending !== window.location.pathname || !ref.current) return;
    focusPending = null;
    // A field the new screen focused itself (autoFocus) keeps the focus.
    const active = document.activeElement;
    if (active && active !== document.body && active.closest("main")) return;
    ref.current.focus({ preventScroll: true });
  }, []);
  return ref;
}
