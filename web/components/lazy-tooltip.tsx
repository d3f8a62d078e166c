import {
  cloneElement,
  useEffect,
  useState,
  type FocusEvent,
  type PointerEvent,
  type ReactElement,
  type ReactNode,
} from "react";
import type { TooltipProps } from "@mui/material/Tooltip";
import { onDemand, useIsLoaded } from "../lib/on-demand.ts";

// MUI's Tooltip brings its Popper (popper.js): fetched when a pointer first comes near a hint.
const tooltip = onDemand<TooltipProps>(() => import("@mui/material/Tooltip"));

/** Starts fetching the tooltips' code, e.g. when the pointer enters the header. */
export function preloadTooltips(): void {
  void tooltip.load();
}

/** MUI's delay before a hint shows on hover (Tooltip's enterDelay). */
const ENTER_DELAY_MS = 100;

type Child = ReactElement<{
  children?: ReactNode;
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave?: (event: PointerEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onBlur?: (event: FocusEvent<HTMLElement>) => void;
}>;

/**
 * A hint over an icon button, as MUI's Tooltip shows it (on hover, or on keyboard focus), whose
 * code comes on the first hover or focus. The child is never re-mounted: the tooltip is anchored
 * to a box laid over it, and shown and hidden by the child's own pointer and focus events. The
 * child names itself (aria-label), so the hint adds nothing to assistive technology; it must be
 * positioned (MUI's buttons are); its own pointer and focus handlers still run. As MUI's: a mouse
 * shows it (a finger's tap does not), and Escape hides it.
 */
export function LazyTooltip({ title, children }: { title: string; children: Child }) {
  const isLoaded = useIsLoaded(tooltip);
  // What holds the hint up: the pointer (after MUI's short delay), or the keyboard's focus.
  const [holder, setHolder] = useState<"pointer" | "keyboard" | null>(null);
  const [hasWaited, setHasWaited] = useState(false);
  useEffect(() => {
    if (holder !== "pointer") return;
    const timer = window.setTimeout(() => setHasWaited(true), ENTER_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [holder]);
  const isOpen = holder === "keyboard" || (holder === "pointer" && hasWaited);
  const hide = () => {
    setHolder(null);
    setHasWaited(false);
  };
  const own = children.props;
  return cloneElement(children, {
    onPointerEnter: (event) => {
      own.onPointerEnter?.(event);
      if (event.pointerType !== "mouse") return;
      void tooltip.load();
      setHolder("pointer");
    },
    onPointerLeave: (event) => {
      own.onPointerLeave?.(event);
      hide();
    },
    onFocus: (event) => {
      own.onFocus?.(event);
      void tooltip.load();
      if (event.currentTarget.matches(":focus-visible")) setHolder("keyboard");
    },
    onBlur: (event) => {
      own.onBlur?.(event);
      hide();
    },
    children: (
      <>
        {children.props.children}
        {isLoaded ? (
          <tooltip.Component
            title={title}
            open={isOpen}
            onClose={hide}
            disableFocusListener
            disableHoverListener
            disableTouchListener
          >
            <span aria-hidden style={{ position: "absolute", inset: 0, pointerEvents: "none" }} />
          </tooltip.Component>
        ) : null}
      </>
    ),
  });
}
