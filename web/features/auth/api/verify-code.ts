import { useMutation } from "@tanstack/react-query";
import type { SignInResult, VerifyCodeInput } from "../../../../shared/schemas/auth.ts";
import { api } from "../../../lib/api.ts";

/** POST /api/auth/sign-in/code: the code step; a right code sets the session cookie. */
export function verifyCode(body: VerifyCodeInput) {
  return api.post<SignInResult>("/api/auth/sign-in/code", body);
}

export function useVerifyCode() {
  return useMutation({ mutationFn: verifyCode, meta: { notifyError: false } });
}
