import { useMutation } from "@tanstack/react-query";
import type { CurrentPassword } from "../../../../shared/schemas/auth.ts";
import { api } from "../../../lib/api.ts";
import { meQueryKey } from "../../../lib/session.tsx";

/** POST /api/me/two-factor/disable: turns two-factor sign-in off (not when it is required). */
export function useDisableTwoFactor() {
  return useMutation({
    mutationFn: (body: CurrentPassword) => api.post<{ ok: true }>("/api/me/two-factor/disable", body),
    meta: {
      notifyError: false,
      invalidates: [meQueryKey],
      successMessage: "Two-factor authentication is off.",
    },
  });
}
