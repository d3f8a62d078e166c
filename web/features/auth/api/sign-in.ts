import { useMutation } from "@tanstack/react-query";
import type { SignIn, SignInResult } from "../../../../shared/schemas/auth.ts";
import { api } from "../../../lib/api.ts";

export type { SignInResult };

/**
 * POST /api/auth/sign-in: checks the password. Either the session cookie is set (and the answer
 * says whether a password reset or a two-factor set-up comes first), or `codeRequired` asks for
 * the authentication code (POST /api/auth/sign-in/code).
 */
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
