import { useEffect, useState } from "react";
import { NavLink, useLocation } from "react-router";
import ClickAwayListener from "@mui/material/ClickAwayListener";
import Paper from "@mui/material/Paper";
import Popper from "@mui/material/Popper";
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Divider from "@mui/material/Divider";
import Drawer from "@mui/material/Drawer";
import IconButton from "@mui/material/IconButton";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import MenuIcon from "@mui/icons-material/Menu";
import type { Theme } from "@mui/material/styles";
import {
  navLinksFor,
  type Capability,
  type NavLink as NavLinkItem,
} from "../../../shared/domain/permissions.ts";
import type { Me } from "../../../shared/schemas/auth.ts";
import { paths } from "../../lib/paths.ts";
import { useCurrentUser, useSignOut } from "../../lib/session.tsx";

// NavLink marks the current section with class "active" and aria-current="page".
// The darker brand green on the grey of a selected item: 6.4:1 (the brand green itself is not enough).
const activeLinkSx = {
  "&.active": {
    color: (t: Theme) => (t.palette.mode === "dark" ? t.palette.primary.light : t.palette.secondary.main),
    bgcolor: "action.selected",
  },
} as const;

/*
 * Main navigation of spec section 2: the role's links (shared navLinksFor) and Logout.
 * From the lg breakpoint they sit in the bar (DesktopNav): Permits, then the administration links
 * under one 'Admin' button, so that they fit at 1280 px with the switcher and icons beside them
 * (issue 14). Below lg they move into a drawer behind a menu button (MobileNav). Only one of the
 * two is ever visible, so there is one "Main" navigation landmark at a time. Sign-out errors leave
 * the user where they are (the snackbar says why).
 */

/**
 * Issue 12's screens, from the capabilities the API granted: 'Bonds' beside 'Permits' for everyone
 * who may read bonds, 'Surety Admin' among the admin links after 'Clients'. The shared nav table
 * (navLinksFor) does not list them; a link it lists already is not added twice.
 */
const BOND_LINKS: (NavLinkItem & { capability: Capability; after: string })[] = [
  { label: "Bonds", to: paths.bonds, capability: "bonds.view", after: paths.permits },
  { label: "Surety Admin", to: paths.sureties, capability: "sureties.manage", after: paths.clients },
];

/** The top-level links (Permits, Bonds) and the administration links, in display order. */
function linksOf(me: Me): { main: NavLinkItem[]; admin: NavLinkItem[] } {
  const links = navLinksFor(me.role);
  for (const extra of BOND_LINKS) {
    if (!me.capabilities.includes(extra.capability) || links.some((l) => l.to === extra.to)) continue;
    const at = links.findIndex((l) => l.to === extra.after);
    links.splice(at === -1 ? links.length : at + 1, 0, { label: extra.label, to: extra.to });
  }
  const isMain = (l: NavLinkItem) => l.to === paths.permits || l.to === paths.bonds;
  return { main: links.filter(isMain), admin: links.filter((l) => !isMain(l)) };
}

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
          {link.label}
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
  const { pathname } = useLocation();
  const isHere = links.some((l) => pathname === l.to || pathname.startsWith(`${l.to}/`));
  const close = (refocus: boolean) => {
    setIsOpen(false);
    if (refocus) anchor?.focus();
  };
  // Escape closes the links wherever the focus is (on the button, or on a link under it).
  useEffect(() => {
    if (!isOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setIsOpen(false);
      anchor?.focus();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [isOpen, anchor]);
  return (
    <>
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
      <Popper
        open={isOpen}
        anchorEl={anchor}
        placement="bottom-start"
        disablePortal
        sx={{ zIndex: (t) => t.zIndex.modal }}
      >
        <ClickAwayListener
          onClickAway={(event) => {
            if (!anchor?.contains(event.target as Node)) close(false);
          }}
        >
          <Paper
            id="admin-links"
            elevation={8}
            sx={{ mt: 0.5, py: 0.5, minWidth: 220, display: "flex", flexDirection: "column" }}
          >
            {links.map((link) => (
              <Button
                key={link.to}
                component={NavLink}
                to={link.to}
                color="inherit"
                onClick={() => close(false)}
                sx={{ ...activeLinkSx, justifyContent: "flex-start", px: 2, py: 1, borderRadius: 0 }}
              >
                {link.label}
              </Button>
            ))}
          </Paper>
        </ClickAwayListener>
      </Popper>
    </>
  );
}

/** Menu button and drawer with the same links (below lg). */
export function MobileNav() {
  const me = useCurrentUser();
  const signOut = useSignOut();
  const [isDrawerOpen, setIsDrawerOpen] = useState(false);
  const { main, admin } = linksOf(me);
  const links = [...main, ...admin];

  return (
    <>
      <IconButton
        color="inherit"
        aria-label="Open navigation menu"
        aria-controls={isDrawerOpen ? "main-nav-drawer" : undefined}
        aria-expanded={isDrawerOpen}
        onClick={() => setIsDrawerOpen(true)}
        sx={{ display: { xs: "inline-flex", lg: "none" } }}
      >
        <MenuIcon />
      </IconButton>
      <Drawer
        id="main-nav-drawer"
        anchor="right"
        open={isDrawerOpen}
        onClose={() => setIsDrawerOpen(false)}
        sx={{ display: { lg: "none" } }}
      >
        <Box component="nav" aria-label="Main" sx={{ width: 260 }}>
          <List>
            {links.map((link) => (
              <ListItem key={link.to} disablePadding>
                <ListItemButton
                  component={NavLink}
                  to={link.to}
                  onClick={() => setIsDrawerOpen(false)}
                  sx={{ "&.active": { ...activeLinkSx["&.active"], fontWeight: 600 } }}
                >
                  <ListItemText primary={link.label} />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
          <Divider />
          <List>
            <ListItem disablePadding>
              <ListItemButton onClick={() => signOut.mutate()} disabled={signOut.isPending}>
                <ListItemText primary="Logout" />
              </ListItemButton>
            </ListItem>
          </List>
        </Box>
      </Drawer>
    </>
  );
}
