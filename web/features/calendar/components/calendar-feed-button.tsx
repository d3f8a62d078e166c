import { Suspense, useState } from "react";
import IconButton from "@mui/material/IconButton";
import CalendarIcon from "@mui/icons-material/CalendarMonthOutlined";
import { LazyTooltip } from "../../../components/lazy-tooltip.tsx";
import { lazyWithPreload, useHasOpened } from "../../../lib/on-demand.ts";

// The dialog (and MUI's Dialog and TextField) is fetched when the pointer comes near the button.
const { Component: CalendarFeedDialog, preload: preloadDialog } = lazyWithPreload(() =>
  import("./calendar-feed-dialog.tsx").then((m) => ({ default: m.CalendarFeedDialog })),
);

/** Header button, for every signed-in user, that opens the calendar feed dialog. */
export function CalendarFeedButton() {
  const [isOpen, setIsOpen] = useState(false);
  const hasOpened = useHasOpened(isOpen);
  return (
    <>
      <LazyTooltip title="Calendar feed">
        <IconButton
          color="inherit"
          aria-label="Calendar feed"
          onPointerEnter={preloadDialog}
          onClick={() => setIsOpen(true)}
        >
          <CalendarIcon />
        </IconButton>
      </LazyTooltip>
      {hasOpened ? (
        <Suspense fallback={null}>
          <CalendarFeedDialog open={isOpen} onClose={() => setIsOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
