import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";
import { usersQueryKey } from "./get-users.ts";

/** DELETE /api/users/:id. The confirmation dialog shows a failure. */
export function useDeleteUser() {
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/api/users/${id}`),
    meta: {
      invalidates: [usersQueryKey, ["impersonation"]],
      successMessage: "User deleted.",
      notifyError: false,
    },
  });
}
