import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { User } from "../../../../shared/schemas/users.ts";
import { errorMessage } from "../../../lib/api.ts";
import { useNotify } from "../../../lib/notify.ts";
import { useSetUserDisabled } from "../api/set-user-disabled.ts";

/** Disable or enable a user. Disabling signs the user out at once; nobody can disable themselves. */
export function AccountStatus({ user }: { user: User }) {
  const setDisabled = useSetUserDisabled();
  const notify = useNotify();
  const toggle = (disabled: boolean) =>
    setDisabled.mutate(
      { id: user.id, disabled },
      { onSuccess: () => notify(disabled ? "User disabled." : "User enabled.", "success") },
    );

  return (
    <Paper
      variant="outlined"
      sx={{ p: { xs: 2, sm: 3 }, mt: 3 }}
      component="section"
      aria-labelledby="account-status-title"
    >
      <Box sx={{ display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap" }}>
        <Box sx={{ flex: 1, minWidth: 220 }}>
          <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
            <Typography id="account-status-title" variant="h3" component="h2" sx={{ fontSize: "1.1rem" }}>
              Account status
            </Typography>
            <Chip
              size="small"
              label={user.disabled ? "Disabled" : "Active"}
              color={user.disabled ? "default" : "success"}
              variant="outlined"
            />
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {user.disabled
              ? "This user cannot sign in. Enable the account to let them back in."
              : user.can.disable
                ? "Disabling signs this user out everywhere and stops them from signing in."
                : "You cannot disable your own account."}
          </Typography>
        </Box>
        {user.can.enable ? (
          <Button variant="outlined" onClick={() => toggle(false)} disabled={setDisabled.isPending}>
            Enable User
          </Button>
        ) : null}
        {user.can.disable ? (
          <Button
            variant="outlined"
            color="error"
            onClick={() => toggle(true)}
            disabled={setDisabled.isPending}
          >
            Disable User
          </Button>
        ) : null}
      </Box>
      {setDisabled.isError ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {errorMessage(setDisabled.error)}
        </Alert>
      ) : null}
    </Paper>
  );
}
