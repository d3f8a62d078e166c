import { useQuery } from "@tanstack/react-query";
import type { Lifecycle } from "../../../../shared/schemas/lifecycle.ts";
import { api } from "../../../lib/api.ts";
import { permitKeys } from "../../../lib/query-keys.ts";

/**
 * GET /api/permits/:id/lifecycle: terms, inspections, acknowledgement, closing and what the user
 * may do. Under the permit's detail key, so any change to the permit refreshes it too.
 */
export function usePermitLifecycle(permitId: string) {
  return useQuery({
    queryKey: permitKeys.lifecycle(permitId),
    queryFn: ({ signal }) => api.get<Lifecycle>(`/api/permits/${permitId}/lifecycle`, { signal }),
  });
}
