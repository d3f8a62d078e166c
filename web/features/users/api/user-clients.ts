import { useMutation, useQuery } from "@tanstack/react-query";
import type { ClientList } from "../../../../shared/schemas/clients.ts";
import type { User } from "../../../../shared/schemas/users.ts";
import { api } from "../../../lib/api.ts";
import { usersQueryKey } from "./get-users.ts";

/** GET /api/clients?company_id=: the clients a client-user of that company could be given. */
export function useCompanyClients(companyId: string | null, enabled: boolean) {
  return useQuery({
    queryKey: ["clients", "of-company", companyId ?? ""],
    queryFn: ({ signal }) =>
      api.get<ClientList>("/api/clients", { signal, query: { company_id: companyId } }),
    enabled: enabled && !!companyId,
    select: (data) => data.clients,
  });
}

/** PUT /api/users/:id/clients. The dialog shows a failure ('Error saving client filter: ' + message). */
export function useSetUserClients() {
  return useMutation({
    mutationFn: ({ id, clientIds }: { id: string; clientIds: string[] }) =>
      api.put<User>(`/api/users/${id}/clients`, { clientIds }),
    meta: { invalidates: [usersQueryKey], successMessage: "Client filter saved.", notifyError: false },
  });
}
