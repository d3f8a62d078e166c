import { useQuery } from "@tanstack/react-query";
import type { PermitDetail } from "../../../../shared/schemas/permits.ts";
import { api } from "../../../lib/api.ts";
import { permitKeys } from "./keys.ts";

/** GET /api/permits/:id (the edit form's starting values; same cache entry as the detail page). */
export function usePermit(id: string) {
  return useQuery({
    queryKey: permitKeys.detail(id),
    queryFn: ({ signal }) => api.get<PermitDetail>(`/api/permits/${id}`, { signal }),
  });
}
