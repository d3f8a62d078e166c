import { useState } from "react";
import { NavLink } from "react-router";
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
import { navLinksFor } from "../../../shared/domain/permissions.ts";
import { useCurrentUser, useSignOut } from "../../lib/session.tsx";

// NavLink marks the current section with class "active" and aria-current="page".
const activeLinkSx = { "&.active": { color: "primary.main", bgcolor: "action.selected" } } as const;

/*
 * Main navigation of spec section 2: the role's links (shared navLinksFor) and Logout.
 * From the lg breakpoint they sit in the bar (DesktopNav); below it they move into a drawer
 * behind a menu button (MobileNav). Only one of the two is ever visible, so there is one
 * "Main" navigation landmark at a time. Sign-out errors leave the user where they are
 * (the snackbar says why).
 */

/** Links and Logout in the bar, growing to fill it (lg and up). */
export function DesktopNav() {
  const me = useCurrentUser();
  const signOut = useSignOut();
  return (
    <Box
      component="nav"
      aria-label="Main"
      sx={{ display: { xs: "none", lg: "flex" }, flex: 1, alignItems: "center", gap: 0.5, minWidth: 0 }}
    >
      {navLinksFor(me.role).map((link) => (
        <Button key={link.to} component={NavLink} to={link.to} color="inherit" sx={activeLinkSx}>
          {link.label}
        </Button>
      ))}
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

/** Menu button and drawer with the same links (below lg). */
export function MobileNav() {
  const me = useCurrentUser();
  const signOut = useSignOut();
  const [isDrawerOpen, setIsDrawerOpen] = useState(false);
  const links = navLinksFor(me.role);

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
                  sx={{ "&.active": { color: "primary.main", fontWeight: 600 } }}
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
