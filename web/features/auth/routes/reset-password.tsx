import { useEffect, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { Navigate, useNavigate } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { PASSWORD_MIN_LENGTH, RESET_REDIRECT_MS } from "../../../../shared/domain/constants.ts";
import type { ResetPassword } from "../../../../shared/schemas/auth.ts";
import { PasswordField } from "../../../components/password-field.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { applyServerFieldErrors } from "../../../lib/form-errors.ts";
import { formResolver, usePreloadWhenIdle } from "../../../lib/form-resolver.ts";
import { usePageTitle } from "../../../lib/page-title.ts";
import { meQueryKey } from "../../../lib/session.tsx";
import { allowResetFlag } from "../../../lib/storage.ts";
import { useResetPassword } from "../api/reset-password.ts";
import { AuthCard } from "../components/auth-card.tsx";

// ResetPasswordSchema, with zod, fetched on first use (see lib/form-resolver.ts).
const resolver = formResolver(() =>
  import("../../../../shared/schemas/auth.ts").then((m) => m.ResetPasswordSchema),
);

/** Forced password change (/reset-password, spec section 2 and the reset gate of section 4). */
export default function ResetPasswordPage() {
  usePageTitle("Reset Your Password");
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Read once: the flag is removed just before leaving, which must not bounce us to "/" early.
  const [isAllowed] = useState(allowResetFlag.isSet);
  const reset = useResetPassword();
  usePreloadWhenIdle(resolver);
  const {
    control,
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = useForm<ResetPassword>({
    resolver,
    defaultValues: { newPassword: "", confirmPassword: "" },
  });

  useEffect(() => {
    if (!reset.isSuccess) return;
    const timer = window.setTimeout(() => {
      allowResetFlag.clear();
      // Drop the answer cached while the reset was pending so "/" -> /login re-reads the session.
      queryClient.removeQueries({ queryKey: meQueryKey });
      void navigate("/", { replace: true });
    }, RESET_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [reset.isSuccess, navigate, queryClient]);

  if (!isAllowed) return <Navigate to="/" replace />;

  const onSubmit = handleSubmit(async (values) => {
    try {
      await reset.mutateAsync(values);
    } catch (error) {
      applyServerFieldErrors(error, setError, ["newPassword", "confirmPassword"]);
    }
  });

  const isDone = reset.isSuccess;
  return (
    <AuthCard>
      <Typography variant="h1" sx={{ fontSize: "1.5rem", mb: 1, textAlign: "center" }}>
        Reset Your Password
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3, textAlign: "center" }}>
        {`Password must be at least ${PASSWORD_MIN_LENGTH} characters long.`}
      </Typography>
      <Box
        component="form"
        noValidate
        onSubmit={onSubmit}
        sx={{ display: "flex", flexDirection: "column", gap: 2 }}
      >
        {reset.isError ? <Alert severity="error">{errorMessage(reset.error)}</Alert> : null}
        {isDone ? <Alert severity="success">Password updated successfully. Redirecting...</Alert> : null}
        <PasswordField
          control={control}
          name="newPassword"
          label="New Password"
          autoComplete="new-password"
          autoFocus
          required
          fullWidth
          disabled={isDone}
        />
        <PasswordField
          control={control}
          name="confirmPassword"
          label="Confirm New Password"
          autoComplete="new-password"
          showLabel="Show confirm password"
          hideLabel="Hide confirm password"
          required
          fullWidth
          disabled={isDone}
        />
        <Button type="submit" variant="contained" size="large" disabled={isSubmitting || isDone} fullWidth>
          Reset Password
        </Button>
      </Box>
    </AuthCard>
  );
}
