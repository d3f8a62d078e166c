import { Suspense, useState } from "react";
import IconButton from "@mui/material/IconButton";
import SwitchAccountIcon from "@mui/icons-material/SwitchAccountOutlined";
import { LazyTooltip } from "../../../components/lazy-tooltip.tsx";
import { lazyWithPreload, useHasOpened } from "../../../lib/on-demand.ts";

// The popover (MUI's Popover and Autocomplete) is fetched when the pointer comes near the button.
const { Component: UserSwitcherPopover, preload: preloadPopover } = lazyWithPreload(
  () => import("./user-switcher-popover.tsx"),
);

/**
 * The super-admin's user switcher (spec section 2, "Header"): the other users grouped by company
 * name. Choosing one starts a server-side impersonation and reloads the app as that user.
 */
export function UserSwitcher() {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const hasOpened = useHasOpened(!!anchor);

  return (
    <>
      <LazyTooltip title="View as another user">
        <IconButton
          color="inherit"
          aria-label="View as another user"
          aria-haspopup="dialog"
          onPointerEnter={preloadPopover}
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <SwitchAccountIcon />
        </IconButton>
      </LazyTooltip>
      {hasOpened ? (
        <Suspense fallback={null}>
          <UserSwitcherPopover anchor={anchor} onClose={() => setAnchor(null)} />
        </Suspense>
      ) : null}
    </>
  );
}
