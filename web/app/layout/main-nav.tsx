import { Suspense, useEffect, useRef, useState } from "react";
import { NavLink, useLocation } from "react-router";
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import MenuIcon from "@mui/icons-material/Menu";
import type { NavLink as NavLinkItem } from "../../../shared/domain/permissions.ts";
import { lazyWithPreload, useHasOpened } from "../../lib/on-demand.ts";
import { useCurrentUser, useSignOut } from "../../lib/session.tsx";
import { NavLinkLabel } from "./nav-link-label.tsx";
import { activeLinkSx, linksOf } from "./nav-links.ts";

/*
 * Main navigation of spec section 2: the role's links (shared navLinksFor) and Logout.
 * From the lg breakpoint they sit in the bar (DesktopNav): Permits, then the administration links
 * under one 'Admin' button, so that they fit at 1280 px with the switcher and icons beside them
 * (issue 14). Below lg they move into a drawer behind a menu button (MobileNav). Only one of the
 * two is ever visible, so there is one "Main" navigation landmark at a time. Sign-out errors leave
 * the user where they are (the snackbar says why).
 *
 * The drawer is a chunk of its own (MUI's Drawer and Modal), fetched when the pointer or a finger
 * comes near its button: no page shows it open.
 */
const { Component: MainNavDrawer, preload: preloadDrawer } = lazyWithPreload(
  () => import("./main-nav-drawer.tsx"),
);

/** Permits, Bonds, the Admin links and Logout in the bar (lg and up). */
export function DesktopNav() {
  const me = useCurrentUser();
  const signOut = useSignOut();
  const { main, admin: adminLinks } = linksOf(me);
  return (
    <Box
      component="nav"
      aria-label="Main"
      sx={{ display: { xs: "none", lg: "flex" }, flex: 1, alignItems: "center", gap: 0.5, minWidth: 0 }}
    >
      {main.map((link) => (
        <Button key={link.to} component={NavLink} to={link.to} color="inherit" sx={activeLinkSx}>
          <NavLinkLabel link={link} />
        </Button>
      ))}
      {adminLinks.length ? <AdminLinks links={adminLinks} /> : null}
      <Button
        color="inherit"
        onClick={() => signOut.mutate()}
        disabled={signOut.isPending}
        sx={{ ml: "auto" }}
      >
        Logout
      </Button>
    </Box>
  );
}

/**
 * 'Admin': a disclosure button with the administration links under it (the spec's links, texts
 * and roles). They stay links inside the Main navigation, not menu items, so they read and
 * behave as the links they are; Escape or a click elsewhere closes them.
 */
function AdminLinks({ links }: { links: NavLinkItem[] }) {
  const [isOpen, setIsOpen] = useState(false);
  const [anchor, setAnchor] = useState<HTMLButtonElement | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  const isHere = links.some((l) => pathname === l.to || pathname.startsWith(`${l.to}/`));
  // Escape closes the links wherever the focus is (on the button, or on a link under it); so does
  // a click anywhere else.
  useEffect(() => {
    if (!isOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setIsOpen(false);
      anchor?.focus();
    };
    const onClick = (event: MouseEvent | TouchEvent) => {
      if (!box.current?.contains(event.target as Node)) setIsOpen(false);
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("click", onClick);
    document.addEventListener("touchend", onClick);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("click", onClick);
      document.removeEventListener("touchend", onClick);
    };
  }, [isOpen, anchor]);
  return (
    // The links hang under the button, in the bar (no popup library: the bar has room below).
    <Box ref={box} sx={{ position: "relative", display: "flex" }}>
      <Button
        ref={setAnchor}
        color="inherit"
        aria-expanded={isOpen}
        aria-controls={isOpen ? "admin-links" : undefined}
        endIcon={<ExpandMoreIcon sx={{ transform: isOpen ? "rotate(180deg)" : undefined }} />}
        onClick={() => setIsOpen(!isOpen)}
        className={isHere ? "active" : undefined}
        sx={activeLinkSx}
      >
        Admin
      </Button>
      {isOpen ? (
        <Paper
          id="admin-links"
          elevation={8}
          sx={{
            position: "absolute",
            top: "100%",
            left: 0,
            zIndex: (t) => t.zIndex.modal,
            mt: 0.5,
            py: 0.5,
            minWidth: 220,
            display: "flex",
            flexDirection: "column",
          }}
        >
          {links.map((link) => (
            <Button
              key={link.to}
              component={NavLink}
              to={link.to}
              color="inherit"
              onClick={() => setIsOpen(false)}
              sx={{ ...activeLinkSx, justifyContent: "flex-start", px: 2, py: 1, borderRadius: 0 }}
            >
              {link.label}
            </Button>
          ))}
        </Paper>
      ) : null}
    </Box>
  );
}

/** Menu button and drawer with the same links (below lg). */
export function MobileNav() {
  const me = useCurrentUser();
  const [isDrawerOpen, setIsDrawerOpen] = useState(false);
  const hasOpened = useHasOpened(isDrawerOpen);
  const { main, admin } = linksOf(me);

  return (
    <>
      <IconButton
        color="inherit"
        aria-label="Open navigation menu"
        aria-controls={isDrawerOpen ? "main-nav-drawer" : undefined}
        aria-expanded={isDrawerOpen}
        onPointerEnter={preloadDrawer}
        onTouchStart={preloadDrawer}
        onFocus={preloadDrawer}
        onClick={() => setIsDrawerOpen(true)}
        sx={{ display: { xs: "inline-flex", lg: "none" } }}
      >
        <MenuIcon />
      </IconButton>
      {hasOpened ? (
        <Suspense fallback={null}>
          <MainNavDrawer
            links={[...main, ...admin]}
            open={isDrawerOpen}
            onClose={() => setIsDrawerOpen(false)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
