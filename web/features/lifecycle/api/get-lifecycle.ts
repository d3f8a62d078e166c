import { useQuery } from "@tanstack/react-query";
import type { Lifecycle } from "../../../../shared/schemas/lifecycle.ts";
import { api } from "../../../lib/api.ts";
import { permitKeys } from "./keys.ts";

/** Under the permit's detail key, so any change to the permit refreshes it too. */
export const lifecycleKey = (permitId: string) => [...permitKeys.detail(permitId), "lifecycle"] as const;

/** GET /api/permits/:id/lifecycle: terms, inspections, acknowledgement, closing and what the user may do. */
export function usePermitLifecycle(permitId: string) {
  return useQuery({
    queryKey: lifecycleKey(permitId),
    queryFn: ({ signal }) => api.get<Lifecycle>(`/api/permits/${permitId}/lifecycle`, { signal }),
  });
}
