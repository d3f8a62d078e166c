import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";
import { scopeContentsKeys } from "../../../lib/query-keys.ts";
import { clientsQueryKey } from "./list-clients.ts";

/** DELETE /api/clients/:id; refused (409, with the reason) while the client has projects. */
export function useDeleteClient() {
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/api/clients/${id}`),
    meta: {
      notifyError: false,
      invalidates: [clientsQueryKey, ...scopeContentsKeys],
      successMessage: "Client deleted.",
    },
  });
}
