import { useMutation } from "@tanstack/react-query";
import type { CurrentPassword, RecoveryCodes } from "../../../../shared/schemas/auth.ts";
import { api } from "../../../lib/api.ts";
import { twoFactorQueryKey } from "./keys.ts";

/** POST /api/me/two-factor/recovery-codes: a new set (shown once); the old codes stop working. */
export function useRegenerateRecoveryCodes() {
  return useMutation({
    mutationFn: (body: CurrentPassword) => api.post<RecoveryCodes>("/api/me/two-factor/recovery-codes", body),
    meta: { notifyError: false, invalidates: [twoFactorQueryKey] },
  });
}
