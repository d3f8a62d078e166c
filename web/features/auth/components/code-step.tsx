import { useState } from "react";
import { useForm } from "react-hook-form";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControlLabel from "@mui/material/FormControlLabel";
import Switch from "@mui/material/Switch";
import Typography from "@mui/material/Typography";
import type { SignInResult, VerifyCodeInput } from "../../../../shared/schemas/auth.ts";
import { TOTP_DIGITS } from "../../../../shared/domain/two-factor.ts";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { ApiError, errorMessage } from "../../../lib/api.ts";
import { applyServerFieldErrors } from "../../../lib/form-errors.ts";
import { formResolver, usePreloadWhenIdle } from "../../../lib/form-resolver.ts";
import { useVerifyCode } from "../api/verify-code.ts";

const resolver = formResolver(() =>
  import("../../../../shared/schemas/auth.ts").then((m) => m.VerifyCodeSchema),
);

/**
 * The sign-in screen's second step for a user with two-factor sign-in: the code from the app, or
 * (with the switch) one of the recovery codes. A sign-in that expired or used up its tries sends
 * the user back to the password step with the server's message.
 */
export function CodeStep({
  onSignedIn,
  onRestart,
}: {
  onSignedIn: (result: SignInResult) => Promise<void>;
  onRestart: (message?: string) => void;
}) {
  const verify = useVerifyCode();
  const [isRecovery, setIsRecovery] = useState(false);
  usePreloadWhenIdle(resolver);
  const {
    control,
    handleSubmit,
    setError,
    setValue,
    clearErrors,
    formState: { isSubmitting },
  } = useForm<VerifyCodeInput>({ resolver, defaultValues: { code: "", method: "totp" } });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await onSignedIn(await verify.mutateAsync(values));
    } catch (error) {
      // The pending sign-in is gone (expired, or too many wrong codes): start again.
      if (error instanceof ApiError && error.code === "UNAUTHENTICATED") onRestart(error.message);
      else applyServerFieldErrors(error, setError, ["code"]);
    }
  });
  const showError = verify.isError && !(verify.error instanceof ApiError && verify.error.fields);

  return (
    <Box
      component="form"
      noValidate
      onSubmit={onSubmit}
      sx={{ display: "flex", flexDirection: "column", gap: 2 }}
    >
      <Box sx={{ textAlign: "center" }}>
        <Typography variant="h1" sx={{ fontSize: "1.35rem", mb: 0.5 }}>
          Two-Factor Authentication
        </Typography>
        <Typography color="text.secondary" variant="body2">
          {isRecovery
            ? "Enter one of the recovery codes you saved when you set up two-factor authentication."
            : `Open your authenticator app and enter the ${TOTP_DIGITS}-digit code for Permitrack.`}
        </Typography>
      </Box>
      {showError ? <Alert severity="error">{errorMessage(verify.error)}</Alert> : null}
      <FormTextField
        key={isRecovery ? "recovery" : "totp"}
        control={control}
        name="code"
        label={isRecovery ? "Recovery Code" : "Authentication Code"}
        autoComplete={isRecovery ? "off" : "one-time-code"}
        autoFocus
        required
        placeholder={isRecovery ? "xxxxx-xxxxx" : "123456"}
        htmlInputProps={{
          inputMode: isRecovery ? "text" : "numeric",
          autoCapitalize: "none",
          spellCheck: false,
          maxLength: 20,
        }}
      />
      <FormControlLabel
        control={
          <Switch
            checked={isRecovery}
            onChange={(event) => {
              setIsRecovery(event.target.checked);
              setValue("method", event.target.checked ? "recovery" : "totp");
              setValue("code", "");
              clearErrors();
              verify.reset();
            }}
          />
        }
        label="Use a recovery code"
      />
      <Button type="submit" variant="contained" size="large" disabled={isSubmitting} fullWidth>
        Verify
      </Button>
      <Button onClick={() => onRestart()} disabled={isSubmitting}>
        Back
      </Button>
    </Box>
  );
}
