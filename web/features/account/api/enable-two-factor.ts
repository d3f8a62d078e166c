import { useMutation } from "@tanstack/react-query";
import type { CurrentPassword, TwoFactorEnrolment } from "../../../../shared/schemas/auth.ts";
import { api } from "../../../lib/api.ts";

/** POST /api/me/two-factor/enable: a new secret (otpauth URI and manual key), not yet on. */
export function useEnableTwoFactor() {
  return useMutation({
    mutationFn: (body: CurrentPassword) => api.post<TwoFactorEnrolment>("/api/me/two-factor/enable", body),
    meta: { notifyError: false },
  });
}
