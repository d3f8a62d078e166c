import { useMutation } from "@tanstack/react-query";
import type { ResetPassword } from "../../../../shared/schemas/auth.ts";
import { api } from "../../../lib/api.ts";

/** POST /api/me/password: sets the new password and clears the must-reset flag. */
export function resetPassword(body: ResetPassword) {
  return api.post<{ ok: true }>("/api/me/password", body);
}

export function useResetPassword() {
  return useMutation({
    mutationFn: resetPassword,
    meta: { notifyError: false },
  });
}
