import { useQuery } from "@tanstack/react-query";
import type { Client } from "../../../../shared/schemas/clients.ts";
import { api } from "../../../lib/api.ts";
import { clientsQueryKey } from "./list-clients.ts";

/** GET /api/clients/:id: the client the edit drawer opens. */
export function useClient(id: string | undefined) {
  return useQuery({
    queryKey: [...clientsQueryKey, id],
    queryFn: ({ signal }) =>
      api.get<{ client: Client }>(`/api/clients/${id}`, { signal }).then((r) => r.client),
    enabled: !!id,
  });
}
