import { useEffect, useRef } from "react";
import { Outlet, useLocation, useNavigate, useNavigationType } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { onAuthFailure } from "../../lib/api.ts";
import { noteLocation } from "../../lib/focus-on-navigation.ts";
import { paths } from "../../lib/paths.ts";
import { allowResetFlag } from "../../lib/storage.ts";

/** Wraps every route, public or not. */
export function RootLayout() {
  return (
    <>
      <AuthRedirects />
      <ScrollToTop />
      <Outlet />
    </>
  );
}

/**
 * When any API call (other than /api/me and sign-in, whose screens handle it) finds the
 * session gone, go to /login; when the password must be changed first, go to the reset screen;
 * when two-factor sign-in must be set up first, go to its set-up page.
 */
function AuthRedirects() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const pathnameRef = useRef(pathname);
  useEffect(() => {
    pathnameRef.current = pathname;
  }, [pathname]);

  useEffect(
    () =>
      onAuthFailure((failure) => {
        if (failure === "unauthenticated") {
          // Forget the previous user's data before anyone else signs in on this tab.
          queryClient.clear();
          allowResetFlag.clear();
          if (pathnameRef.current !== paths.login) void navigate(paths.login, { replace: true });
        } else if (failure === "two-factor-setup-required") {
          // The cached /api/me said no set-up was needed (the company's setting changed since): drop
          // it, so that the set-up page reads it afresh instead of sending the user back.
          queryClient.removeQueries({ queryKey: ["me"] });
          if (pathnameRef.current !== paths.twoFactorSetup)
            void navigate(paths.twoFactorSetup, { replace: true });
        } else {
          allowResetFlag.set();
          if (pathnameRef.current !== paths.resetPassword)
            void navigate(paths.resetPassword, { replace: true });
        }
      }),
    [navigate, queryClient],
  );
  return null;
}

/** A new screen starts at the top; back/forward keeps the browser's own position. */
function ScrollToTop() {
  const { pathname } = useLocation();
  // The next screen's heading takes the focus (lib/focus-on-navigation.ts).
  noteLocation(pathname);
  const navigationType = useNavigationType();
  useEffect(() => {
    if (navigationType !== "POP") window.scrollTo(0, 0);
  }, [pathname, navigationType]);
  return null;
}
