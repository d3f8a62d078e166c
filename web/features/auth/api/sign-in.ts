import { useMutation } from "@tanstack/react-query";
import type { SignIn } from "../../../../shared/schemas/auth.ts";
import { api } from "../../../lib/api.ts";

export interface SignInResult {
  mustResetPassword: boolean;
}

/** POST /api/auth/sign-in: sets the session cookie and says whether the password must change first. */
export function signIn(body: SignIn) {
  return api.post<SignInResult>("/api/auth/sign-in", body);
}

export function useSignIn() {
  return useMutation({
    mutationFn: signIn,
    // The form shows the server's message in its own alert.
    meta: { notifyError: false },
  });
}
