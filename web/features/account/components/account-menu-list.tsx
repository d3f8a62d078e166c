import { Link as RouterLink } from "react-router";
import Box from "@mui/material/Box";
import Divider from "@mui/material/Divider";
import ListItemIcon from "@mui/material/ListItemIcon";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Typography from "@mui/material/Typography";
import AccountIcon from "@mui/icons-material/ManageAccountsOutlined";
import { ROLE_LABELS } from "../../../../shared/domain/roles.ts";
import { paths } from "../../../lib/paths.ts";
import { useCurrentUser } from "../../../lib/session.tsx";

/** The account menu's list (account-menu.tsx), a chunk of its own fetched when it first opens. */
export default function AccountMenuList({
  anchor,
  onClose,
}: {
  anchor: HTMLElement | null;
  onClose: () => void;
}) {
  const me = useCurrentUser();
  return (
    <Menu
      id="account-menu"
      anchorEl={anchor}
      open={!!anchor}
      onClose={onClose}
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
      <MenuItem component={RouterLink} to={paths.account} onClick={onClose}>
        <ListItemIcon>
          <AccountIcon fontSize="small" />
        </ListItemIcon>
        Account
      </MenuItem>
    </Menu>
  );
}
