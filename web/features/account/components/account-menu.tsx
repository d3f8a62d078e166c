import { Suspense, useState } from "react";
import Avatar from "@mui/material/Avatar";
import IconButton from "@mui/material/IconButton";
import { LazyTooltip } from "../../../components/lazy-tooltip.tsx";
import { lazyWithPreload, useHasOpened } from "../../../lib/on-demand.ts";
import { useCurrentUser } from "../../../lib/session.tsx";

// The menu (MUI's Menu, Popover and Modal) is fetched when the pointer comes near the button.
const { Component: AccountMenuList, preload: preloadList } = lazyWithPreload(
  () => import("./account-menu-list.tsx"),
);

const initialsOf = (first: string, last: string, email: string) =>
  `${first.charAt(0)}${last.charAt(0)}`.toUpperCase() || email.charAt(0).toUpperCase();

/** The header's user menu: who is signed in, and the way to their account page. */
export function AccountMenu() {
  const me = useCurrentUser();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const hasOpened = useHasOpened(!!anchor);
  const initials = initialsOf(me.firstName, me.lastName, me.email);
  return (
    <>
      <LazyTooltip title="Your account">
        <IconButton
          // The name holds the initials the button shows (WCAG 2.5.3, label in name).
          aria-label={`Your account, ${initials}`}
          aria-haspopup="menu"
          aria-controls={anchor ? "account-menu" : undefined}
          aria-expanded={!!anchor}
          onPointerEnter={preloadList}
          onClick={(event) => setAnchor(event.currentTarget)}
          size="small"
          sx={{ p: { xs: "2px", sm: "5px" } }}
        >
          <Avatar
            aria-hidden
            sx={{
              width: { xs: 28, sm: 32 },
              height: { xs: 28, sm: 32 },
              fontSize: { xs: "0.75rem", sm: "0.85rem" },
              bgcolor: "primary.main",
            }}
          >
            {initials}
          </Avatar>
        </IconButton>
      </LazyTooltip>
      {hasOpened ? (
        <Suspense fallback={null}>
          <AccountMenuList anchor={anchor} onClose={() => setAnchor(null)} />
        </Suspense>
      ) : null}
    </>
  );
}
