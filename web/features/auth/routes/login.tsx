import { lazy, Suspense, useState } from "react";
import { flushSync } from "react-dom";
import { useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { Navigate, useNavigate } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import type { SignIn, SignInResult } from "../../../../shared/schemas/auth.ts";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { applyServerFieldErrors } from "../../../lib/form-errors.ts";
import { formResolver } from "../../../lib/form-resolver.ts";
import { usePageTitle } from "../../../lib/page-title.ts";
import { paths } from "../../../lib/paths.ts";
import { preloadRoute } from "../../../lib/route-preload.ts";
import { meQueryOptions, useMe } from "../../../lib/session.tsx";
import { allowResetFlag } from "../../../lib/storage.ts";
import { useSignIn } from "../api/sign-in.ts";
import { AuthCard } from "../components/auth-card.tsx";

// SignInSchema, with zod, is fetched when the visitor starts filling in the form (or at the latest
// when it is sent), not with the page.
const resolver = formResolver(() => import("../../../../shared/schemas/auth.ts").then((m) => m.SignInSchema));
// The two-factor code step, for the users who have it: fetched while the password is checked.
const loadCodeStep = () => import("../components/code-step.tsx");
const CodeStep = lazy(() => loadCodeStep().then((m) => ({ default: m.CodeStep })));

/**
 * Sign-in screen (/login, spec section 2): Email, Password, 'Sign In' and the error alert; for a
 * user with two-factor sign-in, then the code step (decision 0011).
 */
export default function LoginPage() {
  usePageTitle("Sign In");
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useMe();
  const signIn = useSignIn();
  const [step, setStep] = useState<"password" | "code">("password");
  const [restartMessage, setRestartMessage] = useState<string | null>(null);
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
  const isSigningIn = signIn.isPending || signIn.isSuccess || step === "code";
  if (me.data && !me.data.mustResetPassword && !isSigningIn) return <Navigate to={paths.permits} replace />;
  // Wait for the first answer only; if the server is having trouble, let the user try anyway.
  if (me.isPending && me.failureCount === 0) return <PageSpinner />;

  /** Signed in (after the password, or after the code): on to where the user must go first. */
  const goOn = async (result: SignInResult) => {
    // Whatever was cached belonged to the previous visitor.
    await queryClient.cancelQueries();
    queryClient.clear();
    if (result.mustResetPassword) {
      allowResetFlag.set();
      await navigate(paths.resetPassword, { replace: true });
    } else if (result.twoFactorSetupRequired) {
      await navigate(paths.twoFactorSetup, { replace: true });
    } else {
      // Load the session and the screen's code first, so /permits appears complete, nav
      // included, in the same task that changes the URL (no spinner in between).
      await Promise.allSettled([queryClient.fetchQuery(meQueryOptions), preloadRoute(paths.permits)]);
      flushSync(() => void navigate(paths.permits, { replace: true }));
    }
  };

  const onSubmit = handleSubmit(async (values) => {
    setRestartMessage(null);
    void loadCodeStep().catch(() => undefined);
    try {
      const result = await signIn.mutateAsync(values);
      if (result.codeRequired) setStep("code");
      else await goOn(result);
    } catch (error) {
      applyServerFieldErrors(error, setError, ["email", "password"]);
    }
  });

  if (step === "code") {
    return (
      <AuthCard>
        <Suspense fallback={<PageSpinner />}>
          <CodeStep
            onSignedIn={goOn}
            onRestart={(message) => {
              signIn.reset();
              setRestartMessage(message ?? null);
              setStep("password");
            }}
          />
        </Suspense>
      </AuthCard>
    );
  }

  return (
    <AuthCard>
      <Box
        component="form"
        noValidate
        onSubmit={onSubmit}
        // Typing, a browser's autofill or a press on the form: the validation code is wanted soon.
        onInput={resolver.preload}
        onKeyDown={resolver.preload}
        onPointerDown={resolver.preload}
        sx={{ display: "flex", flexDirection: "column", gap: 2 }}
      >
        {signIn.isError ? <Alert severity="error">{errorMessage(signIn.error)}</Alert> : null}
        {restartMessage && !signIn.isError ? <Alert severity="error">{restartMessage}</Alert> : null}
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
