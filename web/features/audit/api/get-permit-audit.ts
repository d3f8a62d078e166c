import { useQuery } from "@tanstack/react-query";
import type { AuditList } from "../../../../shared/schemas/audit.ts";
import { api } from "../../../lib/api.ts";
import { permitKeys } from "../../../lib/query-keys.ts";

/** GET /api/permits/:id/audit (newest first), for the form's Audit Trail list. */
export function usePermitAudit(id: string) {
  return useQuery({
    queryKey: permitKeys.audit(id),
    queryFn: ({ signal }) => api.get<AuditList>(`/api/permits/${id}/audit`, { signal }),
    select: (data) => data.entries,
  });
}
