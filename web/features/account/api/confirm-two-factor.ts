import { useMutation } from "@tanstack/react-query";
import type { ConfirmTwoFactor, RecoveryCodes } from "../../../../shared/schemas/auth.ts";
import { api } from "../../../lib/api.ts";
import { meQueryKey } from "../../../lib/session.tsx";

/**
 * POST /api/me/two-factor/confirm: the first code turns two-factor sign-in on and answers the
 * recovery codes (shown once). The session is renewed, and /api/me changes (the set-up gate lifts).
 */
export function useConfirmTwoFactor() {
  return useMutation({
    mutationFn: (body: ConfirmTwoFactor) => api.post<RecoveryCodes>("/api/me/two-factor/confirm", body),
    meta: { notifyError: false, invalidates: [meQueryKey] },
  });
}
