import { useEffect, type ReactNode } from "react";
import { Navigate, useNavigate } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import { PageSpinner } from "../components/page-spinner.tsx";
import { errorMessage } from "../lib/api.ts";
import { paths } from "../lib/paths.ts";
import {
  CurrentUserProvider,
  isPasswordResetRequired,
  isTwoFactorSetupRequired,
  isUnauthenticated,
  useMe,
} from "../lib/session.tsx";
import { allowResetFlag } from "../lib/storage.ts";

/**
 * Session guard of spec section 2: waits for /api/me, sends visitors without a session to
 * /login, users who must change their password to /reset-password, and users who must set up
 * two-factor sign-in to /two-factor-setup. It checks the session only, never the role (the server
 * enforces permissions; screens read useCan()).
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const me = useMe();

  // A failed refresh of a loaded session still has data; an auth error wins over stale data.
  if (me.isError && isUnauthenticated(me.error)) return <Navigate to={paths.login} replace />;
  if ((me.isError && isPasswordResetRequired(me.error)) || me.data?.mustResetPassword)
    return <RedirectToReset />;
  if ((me.isError && isTwoFactorSetupRequired(me.error)) || me.data?.twoFactorSetupRequired)
    return <Navigate to={paths.twoFactorSetup} replace />;
  if (me.data) return <CurrentUserProvider me={me.data}>{children}</CurrentUserProvider>;
  if (me.isError) {
    return (
      <Box sx={{ maxWidth: 560, mx: "auto", my: 8, px: 2 }}>
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void me.refetch()}>
              Retry
            </Button>
          }
        >
          {errorMessage(me.error)}
        </Alert>
      </Box>
    );
  }
  return <PageSpinner label="Loading your session" fullScreen />;
}

/** Sets the local allowReset flag the reset screen requires, then goes there. */
export function RedirectToReset() {
  const navigate = useNavigate();
  useEffect(() => {
    allowResetFlag.set();
    void navigate(paths.resetPassword, { replace: true });
  }, [navigate]);
  return <PageSpinner />;
}
