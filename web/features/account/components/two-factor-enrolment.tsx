import { useState } from "react";
import { useForm } from "react-hook-form";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import CopyIcon from "@mui/icons-material/ContentCopyOutlined";
import {
  ConfirmTwoFactorSchema,
  type ConfirmTwoFactor,
  type TwoFactorEnrolment as Enrolment,
} from "../../../../shared/schemas/auth.ts";
import { TOTP_DIGITS } from "../../../../shared/domain/two-factor.ts";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { applyServerFieldErrors } from "../../../lib/form-errors.ts";
import { useNotify } from "../../../lib/notify.ts";
import { formResolver } from "../../../lib/form-resolver.ts";
import { useConfirmTwoFactor } from "../api/confirm-two-factor.ts";
import { QrCode } from "./qr-code.tsx";
import { RecoveryCodes } from "./recovery-codes.tsx";

const resolver = formResolver(ConfirmTwoFactorSchema);
/** "ABCD EFGH IJKL ..." reads and types more easily than one long run. */
const grouped = (key: string) => key.replace(/(.{4})(?=.)/g, "$1 ");

/**
 * The set-up of two-factor sign-in after the password was checked: scan the QR code (or type the
 * key), confirm with a first code, then save the recovery codes, which are shown only here.
 */
export function TwoFactorEnrolment({
  enrolment,
  email,
  doneLabel,
  onDone,
  onCancel,
}: {
  enrolment: Enrolment;
  email: string;
  doneLabel?: string;
  onDone: () => void;
  onCancel?: () => void;
}) {
  const notify = useNotify();
  const confirm = useConfirmTwoFactor();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const {
    control,
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = useForm<ConfirmTwoFactor>({ resolver, defaultValues: { code: "" } });

  if (recoveryCodes)
    return <RecoveryCodes codes={recoveryCodes} email={email} doneLabel={doneLabel} onDone={onDone} />;

  const onSubmit = handleSubmit(async (values) => {
    try {
      setRecoveryCodes((await confirm.mutateAsync(values)).recoveryCodes);
      notify("Two-factor authentication is on.", "success");
    } catch (error) {
      applyServerFieldErrors(error, setError, ["code"]);
    }
  });
  const copyKey = () =>
    navigator.clipboard.writeText(enrolment.manualKey).then(
      () => notify("Key copied.", "success"),
      () => undefined,
    );

  return (
    <Box
      component="form"
      noValidate
      onSubmit={onSubmit}
      sx={{
        display: "grid",
        gridTemplateColumns: { xs: "1fr", sm: "auto 1fr" },
        gap: { xs: 2, sm: 3 },
        alignItems: "start",
      }}
    >
      <Box sx={{ justifySelf: "center" }}>
        <QrCode value={enrolment.otpauthUri} label="QR code for your authenticator app" />
      </Box>
      <Box sx={{ display: "flex", flexDirection: "column", gap: 1.5, minWidth: 0 }}>
        <Typography>
          <strong>1.</strong> Scan the QR code with an authenticator app, such as Google Authenticator,
          Microsoft Authenticator or 1Password.
        </Typography>
        <Box>
          <Typography variant="body2" color="text.secondary">
            Can&apos;t scan it? Enter this key in the app instead:
          </Typography>
          <Box role="group" aria-label="Manual key" sx={{ display: "flex", alignItems: "center", gap: 0.5 }}>
            <Box
              component="code"
              sx={{
                fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
                fontSize: "0.95rem",
                letterSpacing: "0.05em",
                overflowWrap: "anywhere",
                bgcolor: "action.hover",
                px: 1,
                py: 0.5,
                borderRadius: 1,
              }}
            >
              {grouped(enrolment.manualKey)}
            </Box>
            <Tooltip title="Copy key">
              <IconButton size="small" aria-label="Copy key" onClick={() => void copyKey()}>
                <CopyIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          </Box>
        </Box>
        <Typography>
          <strong>2.</strong> Enter the {TOTP_DIGITS}-digit code the app shows.
        </Typography>
        {confirm.isError && !(confirm.error as { fields?: unknown }).fields ? (
          <Alert severity="error">{errorMessage(confirm.error)}</Alert>
        ) : null}
        <FormTextField
          control={control}
          name="code"
          label="Authentication Code"
          autoComplete="one-time-code"
          required
          htmlInputProps={{ inputMode: "numeric", maxLength: 9 }}
          sx={{ maxWidth: 260 }}
        />
        <Box sx={{ display: "flex", gap: 1 }}>
          <Button type="submit" variant="contained" disabled={isSubmitting}>
            Verify
          </Button>
          {onCancel ? (
            <Button onClick={onCancel} disabled={isSubmitting}>
              Cancel
            </Button>
          ) : null}
        </Box>
      </Box>
    </Box>
  );
}
