import { flushSync } from "react-dom";
import { useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { Navigate, useNavigate } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import type { SignIn } from "../../../../shared/schemas/auth.ts";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { applyServerFieldErrors } from "../../../lib/form-errors.ts";
import { lazyResolver, usePreloadWhenIdle } from "../../../lib/lazy-resolver.ts";
import { usePageTitle } from "../../../lib/page-title.ts";
import { paths } from "../../../lib/paths.ts";
import { preloadRoute } from "../../../lib/route-preload.ts";
import { meQueryOptions, useMe } from "../../../lib/session.tsx";
import { allowResetFlag } from "../../../lib/storage.ts";
import { useSignIn } from "../api/sign-in.ts";
import { AuthCard } from "../components/auth-card.tsx";

// SignInSchema through zodResolver, fetched on first use to keep zod off the first paint.
const resolver = lazyResolver<SignIn>(() => import("../validation.ts").then((m) => m.signInResolver));

/** Sign-in screen (/login, spec section 2). */
export default function LoginPage() {
  usePageTitle("Sign In");
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useMe();
  const signIn = useSignIn();
  usePreloadWhenIdle(resolver);
  const {
    control,
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = useForm<SignIn>({
    resolver,
    defaultValues: { email: "", password: "" },
  });

  // Already signed in (and not held by the reset gate): straight to the permits. Not while
  // this form is signing in: onSubmit decides where to go then.
  const isSigningIn = signIn.isPending || signIn.isSuccess;
  if (me.data && !me.data.mustResetPassword && !isSigningIn) return <Navigate to={paths.permits} replace />;
  // Wait for the first answer only; if the server is having trouble, let the user try anyway.
  if (me.isPending && me.failureCount === 0) return <PageSpinner />;

  const onSubmit = handleSubmit(async (values) => {
    try {
      const result = await signIn.mutateAsync(values);
      // Whatever was cached belonged to the previous visitor.
      await queryClient.cancelQueries();
      queryClient.clear();
      if (result.mustResetPassword) {
        allowResetFlag.set();
        await navigate(paths.resetPassword, { replace: true });
      } else {
        // Load the session and the screen's code first, so /permits appears complete, nav
        // included, in the same task that changes the URL (no spinner in between).
        await Promise.allSettled([queryClient.fetchQuery(meQueryOptions), preloadRoute(paths.permits)]);
        flushSync(() => void navigate(paths.permits, { replace: true }));
      }
    } catch (error) {
      applyServerFieldErrors(error, setError, ["email", "password"]);
    }
  });

  return (
    <AuthCard>
      <Box
        component="form"
        noValidate
        onSubmit={onSubmit}
        sx={{ display: "flex", flexDirection: "column", gap: 2 }}
      >
        {signIn.isError ? <Alert severity="error">{errorMessage(signIn.error)}</Alert> : null}
        <FormTextField
          control={control}
          name="email"
          label="Email"
          type="email"
          autoComplete="username"
          autoFocus
          required
          fullWidth
        />
        <FormTextField
          control={control}
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          fullWidth
        />
        <Button type="submit" variant="contained" size="large" disabled={isSubmitting} fullWidth>
          Sign In
        </Button>
      </Box>
    </AuthCard>
  );
}
