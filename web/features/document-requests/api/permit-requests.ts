import { useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";
import { permitKeys } from "../../../lib/query-keys.ts";
import type { RequestView } from "./types.ts";

/** The Requests card's key, under the permit's, so a change made elsewhere on the page refreshes it too. */
export const requestsKey = (permitId: string) => [...permitKeys.detail(permitId), "requests"] as const;

/** GET /api/permits/:id/requests: the permit's document requests, newest first. */
export function usePermitRequests(permitId: string) {
  return useQuery({
    queryKey: requestsKey(permitId),
    queryFn: ({ signal }) =>
      api.get<{ items: RequestView[] }>(`/api/permits/${permitId}/requests`, { signal }),
    select: (data) => data.items,
  });
}
