import { useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Divider from "@mui/material/Divider";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import ShieldIcon from "@mui/icons-material/VerifiedUserOutlined";
import type { Me, TwoFactorEnrolment as Enrolment } from "../../../../shared/schemas/auth.ts";
import { errorMessage } from "../../../lib/api.ts";
import { useDisableTwoFactor } from "../api/disable-two-factor.ts";
import { useEnableTwoFactor } from "../api/enable-two-factor.ts";
import { useTwoFactorStatus } from "../api/get-two-factor.ts";
import { useRegenerateRecoveryCodes } from "../api/regenerate-recovery-codes.ts";
import { PasswordDialog } from "./password-dialog.tsx";
import { RecoveryCodes } from "./recovery-codes.tsx";
import { TwoFactorEnrolment } from "./two-factor-enrolment.tsx";

type Prompt = "enable" | "regenerate" | "disable" | null;

/** Why the user cannot turn it off, in their terms. */
const requiredBecause = (me: Me) =>
  me.role === "super-admin"
    ? "Required for super-admins."
    : `Required by ${me.company?.name ?? "your company"}.`;

/**
 * The account page's 'Two-Factor Authentication' section: status, Enable (QR code, manual key,
 * first code, recovery codes shown once), Regenerate recovery codes, Disable. Every button comes
 * from the server's `can` flags; each change asks for the current password.
 */
export function TwoFactorSection({ me }: { me: Me }) {
  const status = useTwoFactorStatus();
  const enable = useEnableTwoFactor();
  const regenerate = useRegenerateRecoveryCodes();
  const disable = useDisableTwoFactor();
  const [prompt, setPrompt] = useState<Prompt>(null);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [freshCodes, setFreshCodes] = useState<string[] | null>(null);

  const finish = () => {
    setEnrolment(null);
    setFreshCodes(null);
    void status.refetch();
  };

  let body;
  if (status.isPending) body = <Skeleton variant="rounded" height={64} />;
  else if (status.isError) body = <Alert severity="error">{errorMessage(status.error)}</Alert>;
  else if (enrolment)
    body = (
      <TwoFactorEnrolment
        enrolment={enrolment}
        email={me.email}
        onDone={finish}
        onCancel={() => setEnrolment(null)}
      />
    );
  else if (freshCodes) body = <RecoveryCodes codes={freshCodes} email={me.email} onDone={finish} />;
  else {
    const s = status.data;
    body = (
      <Box sx={{ display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap" }}>
        <Box sx={{ flex: 1, minWidth: 240 }}>
          <Typography variant="body2" color="text.secondary">
            {s.enabled
              ? `You sign in with your password and a code from your authenticator app. ${
                  s.recoveryCodesLeft === 1 ? "1 recovery code" : `${s.recoveryCodesLeft} recovery codes`
                } left.`
              : "Protect your account with a code from an authenticator app on your phone, asked for at every sign-in."}
          </Typography>
          {s.required ? (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {requiredBecause(me)}
            </Typography>
          ) : null}
          {s.enabled && s.recoveryCodesLeft !== null && s.recoveryCodesLeft <= 2 ? (
            <Alert severity="warning" sx={{ mt: 1 }}>
              You are running out of recovery codes. Regenerate them and keep the new set somewhere safe.
            </Alert>
          ) : null}
        </Box>
        <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
          {s.can.enable ? (
            <Button variant="contained" onClick={() => setPrompt("enable")}>
              Enable
            </Button>
          ) : null}
          {s.can.regenerateRecoveryCodes ? (
            <Button variant="outlined" onClick={() => setPrompt("regenerate")}>
              Regenerate recovery codes
            </Button>
          ) : null}
          {s.can.disable ? (
            <Button variant="outlined" color="error" onClick={() => setPrompt("disable")}>
              Disable
            </Button>
          ) : null}
        </Box>
      </Box>
    );
  }

  const isOn = status.data?.enabled ?? false;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="two-factor-title"
      sx={{ p: { xs: 2, sm: 3 } }}
    >
      <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, mb: 2, flexWrap: "wrap" }}>
        <ShieldIcon color={isOn ? "success" : "action"} />
        <Typography id="two-factor-title" variant="h2" sx={{ fontSize: "1.2rem", fontWeight: 600 }}>
          Two-Factor Authentication
        </Typography>
        {status.data ? (
          <Chip
            size="small"
            variant="outlined"
            color={isOn ? "success" : "default"}
            label={isOn ? "On" : "Off"}
          />
        ) : null}
      </Box>
      <Divider sx={{ mb: 2 }} />
      {body}
      <PasswordDialog
        open={prompt === "enable"}
        title="Enable two-factor authentication"
        description="Enter your password to set up an authenticator app."
        confirmLabel="Continue"
        onClose={() => setPrompt(null)}
        onConfirm={async (password) => {
          setEnrolment(await enable.mutateAsync({ password }));
          setPrompt(null);
        }}
      />
      <PasswordDialog
        open={prompt === "regenerate"}
        title="Regenerate recovery codes"
        description="Your current recovery codes will stop working. Enter your password to get a new set."
        confirmLabel="Regenerate"
        onClose={() => setPrompt(null)}
        onConfirm={async (password) => {
          setFreshCodes((await regenerate.mutateAsync({ password })).recoveryCodes);
          setPrompt(null);
        }}
      />
      <PasswordDialog
        open={prompt === "disable"}
        title="Disable two-factor authentication"
        description="You will sign in with your password only. Enter your password to confirm."
        confirmLabel="Disable"
        confirmColor="error"
        onClose={() => setPrompt(null)}
        onConfirm={async (password) => {
          await disable.mutateAsync({ password });
          setPrompt(null);
          void status.refetch();
        }}
      />
    </Paper>
  );
}
