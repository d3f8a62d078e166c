import { useState } from "react";
import { Link as RouterLink } from "react-router";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Divider from "@mui/material/Divider";
import IconButton from "@mui/material/IconButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import AccountIcon from "@mui/icons-material/ManageAccountsOutlined";
import { ROLE_LABELS } from "../../../../shared/domain/roles.ts";
import { paths } from "../../../lib/paths.ts";
import { useCurrentUser } from "../../../lib/session.tsx";

const initialsOf = (first: string, last: string, email: string) =>
  `${first.charAt(0)}${last.charAt(0)}`.toUpperCase() || email.charAt(0).toUpperCase();

/** The header's user menu: who is signed in, and the way to their account page. */
export function AccountMenu() {
  const me = useCurrentUser();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const initials = initialsOf(me.firstName, me.lastName, me.email);
  return (
    <>
      <Tooltip title="Your account">
        <IconButton
          // The name holds the initials the button shows (WCAG 2.5.3, label in name).
          aria-label={`Your account, ${initials}`}
          aria-haspopup="menu"
          aria-controls={anchor ? "account-menu" : undefined}
          aria-expanded={!!anchor}
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
      </Tooltip>
      <Menu
        id="account-menu"
        anchorEl={anchor}
        open={!!anchor}
        onClose={close}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
      >
        <Box sx={{ px: 2, py: 1, maxWidth: 300 }}>
          <Typography sx={{ fontWeight: 600 }} noWrap>
            {`${me.firstName} ${me.lastName}`.trim() || me.email}
          </Typography>
          <Typography variant="body2" color="text.secondary" noWrap>
            {me.email}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {ROLE_LABELS[me.role]}
          </Typography>
        </Box>
        <Divider />
        <MenuItem component={RouterLink} to={paths.account} onClick={close}>
          <ListItemIcon>
            <AccountIcon fontSize="small" />
          </ListItemIcon>
          Account
        </MenuItem>
      </Menu>
    </>
  );
}
