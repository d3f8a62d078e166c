import { useQuery } from "@tanstack/react-query";
import type { PermitDetail } from "../../../../shared/schemas/permits.ts";
import { api } from "../../../lib/api.ts";
import { permitKeys } from "./keys.ts";

/** GET /api/permits/:id: the permit with its project, client, company and what the user may do. */
export function usePermit(id: string, enabled = true) {
  return useQuery({
    enabled,
    queryKey: permitKeys.detail(id),
    queryFn: ({ signal }) => api.get<PermitDetail>(`/api/permits/${id}`, { signal }),
  });
}
