import { useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { User } from "../../../../shared/schemas/users.ts";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useNotify } from "../../../lib/notify.ts";
import { useSetUserDisabled } from "../api/set-user-disabled.ts";

/**
 * Disable or enable a user. Disabling signs the user out at once, so it asks first (issue 14);
 * nobody can disable themselves.
 */
export function AccountStatus({ user }: { user: User }) {
  const setDisabled = useSetUserDisabled();
  const notify = useNotify();
  const [isConfirming, setIsConfirming] = useState(false);
  const toggle = (disabled: boolean) =>
    setDisabled.mutate(
      { id: user.id, disabled },
      {
        onSuccess: () => {
          setIsConfirming(false);
          notify(disabled ? "User disabled." : "User enabled.", "success");
        },
      },
    );
  const name = `${user.firstName} ${user.lastName}`.trim() || user.email;

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
            onClick={() => {
              setDisabled.reset();
              setIsConfirming(true);
            }}
            disabled={setDisabled.isPending}
          >
            Disable User
          </Button>
        ) : null}
      </Box>
      {setDisabled.isError && !isConfirming ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {errorMessage(setDisabled.error)}
        </Alert>
      ) : null}
      <ConfirmDialog
        open={isConfirming}
        title="Disable user"
        message={`Disable ${name}?`}
        details={`${user.email} is signed out everywhere at once and cannot sign in until the account is enabled again.`}
        confirmLabel="Disable User"
        isBusy={setDisabled.isPending}
        error={setDisabled.isError ? errorMessage(setDisabled.error) : undefined}
        onClose={() => setIsConfirming(false)}
        onConfirm={() => toggle(true)}
      />
    </Paper>
  );
}
