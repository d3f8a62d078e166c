import { useMutation } from "@tanstack/react-query";
import type { User } from "../../../../shared/schemas/users.ts";
import { api } from "../../../lib/api.ts";
import { usersQueryKey } from "./get-users.ts";

/** POST /api/users/:id/two-factor/reset: a lost phone; the user's sessions end, they enrol again. */
export function useResetTwoFactor() {
  return useMutation({
    mutationFn: (id: string) => api.post<User>(`/api/users/${id}/two-factor/reset`),
    meta: {
      invalidates: [usersQueryKey],
      notifyError: false,
      successMessage: "Two-factor authentication reset.",
    },
  });
}
