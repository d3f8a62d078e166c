import { useQuery } from "@tanstack/react-query";
import type { ClientList } from "../../../../shared/schemas/clients.ts";
import { api } from "../../../lib/api.ts";

/** Names of a company's clients, the suggestions of the project form's Client field. */
export function useClientSuggestions(companyId: string) {
  return useQuery({
    queryKey: ["clients", "names", companyId],
    queryFn: async ({ signal }) => {
      const { clients } = await api.get<ClientList>("/api/clients", {
        signal,
        query: { company_id: companyId },
      });
      return clients.map((c) => c.name);
    },
    enabled: !!companyId,
  });
}
