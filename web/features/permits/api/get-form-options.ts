import { useQuery } from "@tanstack/react-query";
import type { PermitFormOptions } from "../../../../shared/schemas/permits.ts";
import { api } from "../../../lib/api.ts";
import { permitKeys } from "./keys.ts";

/**
 * GET /api/permits/form-options: the company's projects (and the companies, for a super-admin).
 * A super-admin's form passes the chosen company, or the project it was opened from.
 */
export function usePermitFormOptions(companyId: string | null, projectId: string | null, enabled = true) {
  return useQuery({
    queryKey: permitKeys.formOptions(companyId, projectId),
    queryFn: ({ signal }) =>
      api.get<PermitFormOptions>("/api/permits/form-options", {
        query: { company_id: companyId, project_id: projectId },
        signal,
      }),
    enabled,
    placeholderData: (previous) => (previous ? { ...previous, projects: [] } : undefined),
  });
}
