import { NavLink } from "react-router";
import Box from "@mui/material/Box";
import Divider from "@mui/material/Divider";
import Drawer from "@mui/material/Drawer";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import type { NavLink as NavLinkItem } from "../../../shared/domain/permissions.ts";
import { useSignOut } from "../../lib/session.tsx";
import { NavLinkLabel } from "./nav-link-label.tsx";
import { activeLinkSx } from "./nav-links.ts";

/** The phone's navigation drawer (main-nav.tsx), a chunk of its own fetched on first use. */
export default function MainNavDrawer({
  links,
  open,
  onClose,
}: {
  links: NavLinkItem[];
  open: boolean;
  onClose: () => void;
}) {
  const signOut = useSignOut();
  return (
    <Drawer
      id="main-nav-drawer"
      anchor="right"
      open={open}
      onClose={onClose}
      sx={{ display: { lg: "none" } }}
    >
      <Box component="nav" aria-label="Main" sx={{ width: 260 }}>
        <List>
          {links.map((link) => (
            <ListItem key={link.to} disablePadding>
              <ListItemButton
                component={NavLink}
                to={link.to}
                onClick={onClose}
                sx={{ "&.active": { ...activeLinkSx["&.active"], fontWeight: 600 } }}
              >
                <ListItemText primary={<NavLinkLabel link={link} />} />
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
  );
}
