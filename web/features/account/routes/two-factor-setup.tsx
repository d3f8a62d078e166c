import { useState } from "react";
import { useForm } from "react-hook-form";
import { Navigate, useNavigate } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { PRODUCT_NAME } from "../../../../shared/domain/constants.ts";
import {
  CurrentPasswordSchema,
  type CurrentPassword,
  type TwoFactorEnrolment as Enrolment,
} from "../../../../shared/schemas/auth.ts";
import productLogoUrl from "../../../assets/permitrack-logo.svg";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { PasswordField } from "../../../components/password-field.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { applyServerFieldErrors } from "../../../lib/form-errors.ts";
import { usePageTitle } from "../../../lib/page-title.ts";
import { paths } from "../../../lib/paths.ts";
import { isUnauthenticated, meQueryOptions, useMe, useSignOut } from "../../../lib/session.tsx";
import { allowResetFlag } from "../../../lib/storage.ts";
import { formResolver } from "../../../lib/form-resolver.ts";
import { useEnableTwoFactor } from "../api/enable-two-factor.ts";
import { TwoFactorEnrolment } from "../components/two-factor-enrolment.tsx";

const resolver = formResolver(CurrentPasswordSchema);

/**
 * The two-factor set-up a user must finish before anything else (/two-factor-setup): super-admins
 * always, a company's staff when the company requires it. Like /reset-password it stands outside
 * the app shell, since every other screen's data is refused until it is done.
 */
export default function TwoFactorSetupPage() {
  usePageTitle("Set Up Two-Factor Authentication");
  const me = useMe();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOut = useSignOut();
  const enable = useEnableTwoFactor();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const {
    control,
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = useForm<CurrentPassword>({ resolver, defaultValues: { password: "" } });

  if (me.isError && isUnauthenticated(me.error)) return <Navigate to={paths.login} replace />;
  if (!me.data) return <PageSpinner />;
  if (me.data.mustResetPassword) {
    allowResetFlag.set();
    return <Navigate to={paths.resetPassword} replace />;
  }
  // Nothing to do (any more): on to the app. Not while the recovery codes are on screen.
  if (!me.data.twoFactorSetupRequired && !enrolment) return <Navigate to={paths.permits} replace />;

  const onSubmit = handleSubmit(async (values) => {
    try {
      setEnrolment(await enable.mutateAsync(values));
    } catch (error) {
      applyServerFieldErrors(error, setError, ["password"]);
    }
  });
  const finish = async () => {
    await queryClient.fetchQuery({ ...meQueryOptions, staleTime: 0 });
    await navigate(paths.permits, { replace: true });
  };
  const who =
    me.data.role === "super-admin"
      ? "Super-admin accounts are"
      : `Accounts of ${me.data.company?.name ?? "your company"} are`;

  return (
    <Box sx={{ flex: 1, display: "flex", justifyContent: "center", alignItems: { sm: "center" } }}>
      <Paper
        variant="outlined"
        sx={{ width: "100%", maxWidth: 680, p: { xs: 2.5, sm: 4 }, mt: { xs: 1, sm: 0 } }}
      >
        <Box sx={{ display: "flex", justifyContent: "center", mb: 2 }}>
          <Box component="img" src={productLogoUrl} alt={PRODUCT_NAME} sx={{ height: 44, width: "auto" }} />
        </Box>
        <Typography variant="h1" sx={{ fontSize: "1.5rem", textAlign: "center", mb: 1 }}>
          Set Up Two-Factor Authentication
        </Typography>
        <Typography color="text.secondary" sx={{ textAlign: "center", mb: 3 }}>
          {who} protected by a code from an authenticator app at every sign-in. Set it up now to continue.
        </Typography>
        {enrolment ? (
          <TwoFactorEnrolment
            enrolment={enrolment}
            email={me.data.email}
            doneLabel="Continue"
            onDone={() => void finish()}
          />
        ) : (
          <Box
            component="form"
            noValidate
            onSubmit={onSubmit}
            sx={{ display: "flex", flexDirection: "column", gap: 2, maxWidth: 400, mx: "auto" }}
          >
            {enable.isError && !(enable.error as { fields?: unknown }).fields ? (
              <Alert severity="error">{errorMessage(enable.error)}</Alert>
            ) : null}
            <Typography variant="body2">
              Signed in as <strong>{me.data.email}</strong>. Enter your password to begin.
            </Typography>
            <PasswordField
              control={control}
              name="password"
              label="Current Password"
              autoComplete="current-password"
              autoFocus
              required
            />
            <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
              Continue
            </Button>
            <Button onClick={() => signOut.mutate()} disabled={signOut.isPending}>
              Logout
            </Button>
          </Box>
        )}
      </Paper>
    </Box>
  );
}
