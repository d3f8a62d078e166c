import { createContext, useContext, type ReactNode } from "react";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import type { Me } from "../../shared/schemas/auth.ts";
import type { Capability } from "../../shared/domain/permissions.ts";
import { api, ApiError } from "./api.ts";
import { allowResetFlag } from "./storage.ts";
import { todayIn } from "../../shared/domain/dates.ts";

/**
 * The signed-in user ("current-user state" of spec section 4), read from GET /api/me.
 * While a super-admin impersonates, /api/me already answers as the impersonated user and
 * `impersonator` names the real one.
 */
export const meQueryKey = ["me"] as const;

export const meQueryOptions = queryOptions({
  queryKey: meQueryKey,
  queryFn: ({ signal }) => api.get<Me>("/api/me", { signal }),
  staleTime: 60_000,
});

/** The raw query: use on public pages. Inside the app shell prefer useCurrentUser(). */
export function useMe() {
  return useQuery(meQueryOptions);
}

/** True when the error means "nobody is signed in". */
export const isUnauthenticated = (error: unknown) => error instanceof ApiError && error.status === 401;
/** True when the user must set a new password before anything else works. */
export const isPasswordResetRequired = (error: unknown) =>
  error instanceof ApiError && error.code === "PASSWORD_RESET_REQUIRED";

/** True when the user must set up two-factor sign-in before anything else works. */
export const isTwoFactorSetupRequired = (error: unknown) =>
  error instanceof ApiError && error.code === "TWO_FACTOR_SETUP_REQUIRED";

const CurrentUserContext = createContext<Me | null>(null);

/** Provided by the session guard once /api/me has answered. */
export function CurrentUserProvider({ me, children }: { me: Me; children: ReactNode }) {
  return <CurrentUserContext value={me}>{children}</CurrentUserContext>;
}

/** The signed-in user; only inside routes behind the session guard (all of them but login/reset). */
export function useCurrentUser(): Me {
  const me = useContext(CurrentUserContext);
  if (!me) throw new Error("useCurrentUser must be used inside the session guard");
  return me;
}

/**
 * Whether the API granted the current user a capability. The UI shows or hides actions from
 * this (the server's answer), never from its own role checks.
 */
/** Today ("YYYY-MM-DD") in the signed-in user's company's zone (the browser's for a super-admin). */
export function useCompanyToday(): string {
  const me = useCurrentUser();
  return todayIn(me.company?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
}

export function useCan(capability: Capability): boolean {
  return useCurrentUser().capabilities.includes(capability);
}

/** POST /api/auth/sign-out, then forget every cached answer and go to /login. Stays put on failure. */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => api.post<void>("/api/auth/sign-out"),
    onSuccess: async () => {
      await queryClient.cancelQueries();
      queryClient.clear();
      allowResetFlag.clear();
      await navigate("/login", { replace: true });
    },
  });
}
