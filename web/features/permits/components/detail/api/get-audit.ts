import { useQuery } from "@tanstack/react-query";
import type { AuditList } from "../../../../../../shared/schemas/audit.ts";
import { api } from "../../../../../lib/api.ts";
import { permitDetailKeys } from "./keys.ts";

/** GET /api/permits/:id/audit: newest first. */
export function useAuditTrail(permitId: string) {
  return useQuery({
    queryKey: permitDetailKeys.audit(permitId),
    queryFn: ({ signal }) => api.get<AuditList>(`/api/permits/${permitId}/audit`, { signal }),
    select: (data) => data.entries,
  });
}
