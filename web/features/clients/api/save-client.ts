import { useMutation } from "@tanstack/react-query";
import type { Client, ClientCreate, ClientUpdate } from "../../../../shared/schemas/clients.ts";
import { api } from "../../../lib/api.ts";
import { scopeContentsKeys } from "../../../lib/query-keys.ts";
import { clientsQueryKey } from "./list-clients.ts";

/** POST /api/clients. */
export function useCreateClient() {
  return useMutation({
    mutationFn: (body: ClientCreate) =>
      api.post<{ client: Client }>("/api/clients", body).then((r) => r.client),
    // The drawer shows the error next to the field it concerns. A client ticks half of a
    // getting-started step (issue 25).
    meta: {
      notifyError: false,
      invalidates: [clientsQueryKey, ...scopeContentsKeys],
      successMessage: "Client saved.",
    },
  });
}

/** PUT /api/clients/:id (rename). */
export function useUpdateClient(id: string) {
  return useMutation({
    mutationFn: (body: ClientUpdate) =>
      api.put<{ client: Client }>(`/api/clients/${id}`, body).then((r) => r.client),
    meta: { notifyError: false, invalidates: [clientsQueryKey], successMessage: "Client saved." },
  });
}
