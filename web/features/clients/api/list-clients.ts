import { useQuery } from "@tanstack/react-query";
import type { ClientList } from "../../../../shared/schemas/clients.ts";
import { api } from "../../../lib/api.ts";

export const clientsQueryKey = ["clients"] as const;

/** GET /api/clients: the clients the user may manage, by name. */
export function useClients() {
  return useQuery({
    queryKey: clientsQueryKey,
    queryFn: ({ signal }) => api.get<ClientList>("/api/clients", { signal }),
  });
}
