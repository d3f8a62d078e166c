import { useQuery } from "@tanstack/react-query";
import type { ClientList } from "../../../../shared/schemas/clients.ts";
import { api } from "../../../lib/api.ts";

export const clientsQueryKey = ["clients"] as const;

/**
 * GET /api/clients: the clients the user may manage, by name; with a company id, that company's
 * only. The one lookup of clients: the clients screen, the project form's suggestions and the
 * Edit Clients dialog share it.
 */
export function useClients(companyId?: string | null, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: [...clientsQueryKey, "list", companyId ?? null],
    queryFn: ({ signal }) =>
      api.get<ClientList>("/api/clients", { signal, query: { company_id: companyId } }),
    enabled,
  });
}
