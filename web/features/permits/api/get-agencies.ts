import { useQuery } from "@tanstack/react-query";
import type { PermitAgencies } from "../../../../shared/schemas/permits.ts";
import { api } from "../../../lib/api.ts";
import { permitKeys } from "./keys.ts";

/** GET /api/permits/agencies: the company's existing agencies, for the Agency suggestions. */
export function useAgencies(companyId: string | null) {
  return useQuery({
    queryKey: permitKeys.agencies(companyId),
    queryFn: ({ signal }) =>
      api.get<PermitAgencies>("/api/permits/agencies", { query: { company_id: companyId }, signal }),
    select: (data) => data.agencies,
    staleTime: 5 * 60_000,
  });
}
