import { useMutation } from "@tanstack/react-query";
import type { User } from "../../../../shared/schemas/users.ts";
import { api } from "../../../lib/api.ts";
import { usersQueryKey } from "./get-users.ts";

/** PUT /api/users/:id/clients. The dialog shows a failure ('Error saving client filter: ' + message). */
export function useSetUserClients() {
  return useMutation({
    mutationFn: ({ id, clientIds }: { id: string; clientIds: string[] }) =>
      api.put<User>(`/api/users/${id}/clients`, { clientIds }),
    meta: { invalidates: [usersQueryKey], successMessage: "Client filter saved.", notifyError: false },
  });
}
