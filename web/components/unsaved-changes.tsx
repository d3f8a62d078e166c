import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { useNavigate } from "react-router";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";

export const UNSAVED_TITLE = "Leave without saving?";
export const UNSAVED_MESSAGE = "You have unsaved changes. If you leave this page now, they are lost.";

/** A same-window link to a page of this app, followed by a plain left click. */
function appLinkOf(event: MouseEvent): string | null {
  if (event.defaultPrevented || event.button !== 0) return null;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const anchor = (event.target as Element | null)?.closest?.("a[href]");
  if (!(anchor instanceof HTMLAnchorElement)) return null;
  if (anchor.target && anchor.target !== "_self") return null;
  if (anchor.hasAttribute("download")) return null;
  const url = new URL(anchor.href, window.location.href);
  if (url.origin !== window.location.origin) return null;
  if (url.pathname === window.location.pathname && url.search === window.location.search) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Warns before a form with unsaved changes is left (issue 14): a link anywhere on the page (nav,
 * header, breadcrumbs), the form's own Cancel (`leave(to)`), and closing or reloading the tab (the
 * browser's own question). The router here is declarative (decision 0001), so links are caught as
 * they are clicked rather than blocked by the router; a save navigates by code and is never asked.
 *
 * Render `prompt` once in the form.
 */
export function useUnsavedChanges(isDirty: boolean): { leave: (to: string) => void; prompt: ReactNode } {
  const navigate = useNavigate();
  const [pending, setPending] = useState<string | null>(null);
  const dirty = useRef(isDirty);
  useEffect(() => {
    dirty.current = isDirty;
  }, [isDirty]);

  useEffect(() => {
    if (!isDirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    // Capture, on the document: before the router's own click handler sees the link.
    const onClick = (event: MouseEvent) => {
      const to = appLinkOf(event);
      if (!to || !dirty.current) return;
      event.preventDefault();
      event.stopPropagation();
      setPending(to);
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [isDirty]);

  const leave = useCallback(
    (to: string) => {
      if (dirty.current) setPending(to);
      else void navigate(to);
    },
    [navigate],
  );

  const prompt = (
    <Dialog open={pending !== null} onClose={() => setPending(null)} aria-labelledby="unsaved-title">
      <DialogTitle id="unsaved-title">{UNSAVED_TITLE}</DialogTitle>
      <DialogContent>
        <DialogContentText>{UNSAVED_MESSAGE}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button autoFocus onClick={() => setPending(null)}>
          Stay on this page
        </Button>
        <Button
          color="error"
          variant="contained"
          onClick={() => {
            const to = pending;
            dirty.current = false;
            setPending(null);
            if (to) void navigate(to);
          }}
        >
          Leave without saving
        </Button>
      </DialogActions>
    </Dialog>
  );
  return { leave, prompt };
}
