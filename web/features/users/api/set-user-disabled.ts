import { useMutation } from "@tanstack/react-query";
import type { User } from "../../../../shared/schemas/users.ts";
import { api } from "../../../lib/api.ts";
import { usersQueryKey } from "./get-users.ts";

/** POST /api/users/:id/disable or /enable. Disabling ends the user's sessions at once. */
export function useSetUserDisabled() {
  return useMutation({
    mutationFn: ({ id, disabled }: { id: string; disabled: boolean }) =>
      api.post<User>(`/api/users/${id}/${disabled ? "disable" : "enable"}`),
    meta: { invalidates: [usersQueryKey, ["impersonation"]] },
  });
}
