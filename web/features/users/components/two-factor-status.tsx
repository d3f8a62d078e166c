import { useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { User } from "../../../../shared/schemas/users.ts";
import { ResetTwoFactorDialog } from "./reset-two-factor-dialog.tsx";

/** The user form's two-factor card: on or off, and the admin's reset for a lost phone. */
export function TwoFactorStatus({ user }: { user: User }) {
  const [isConfirming, setIsConfirming] = useState(false);
  return (
    <Paper
      variant="outlined"
      sx={{ p: { xs: 2, sm: 3 }, mt: 3 }}
      component="section"
      aria-labelledby="two-factor-status-title"
    >
      <Box sx={{ display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap" }}>
        <Box sx={{ flex: 1, minWidth: 220 }}>
          <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
            <Typography id="two-factor-status-title" variant="h3" component="h2" sx={{ fontSize: "1.1rem" }}>
              Two-Factor Authentication
            </Typography>
            <Chip
              size="small"
              variant="outlined"
              label={user.twoFactorEnabled ? "On" : "Off"}
              color={user.twoFactorEnabled ? "success" : "default"}
            />
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {user.twoFactorEnabled
              ? user.can.resetTwoFactor
                ? "If this user lost their phone, reset it: they sign in again and set up a new authenticator app."
                : "Your own is managed on your account page."
              : "This user signs in without an authenticator app."}
          </Typography>
        </Box>
        {user.can.resetTwoFactor ? (
          <Button variant="outlined" color="warning" onClick={() => setIsConfirming(true)}>
            Reset Two-Factor
          </Button>
        ) : null}
      </Box>
      <ResetTwoFactorDialog user={isConfirming ? user : null} onClose={() => setIsConfirming(false)} />
    </Paper>
  );
}
