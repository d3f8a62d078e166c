import { useQuery } from "@tanstack/react-query";
import type { Company } from "../../../../shared/schemas/companies.ts";
import { api } from "../../../lib/api.ts";
import { companiesQueryKey } from "./get-companies.ts";

export const companyQueryKey = (id: string) => [...companiesQueryKey, "detail", id] as const;

/** GET /api/companies/:id, with the counts of what a delete would remove (always fresh). */
export function useCompany(id: string | undefined, opts: { fresh?: boolean } = {}) {
  return useQuery({
    queryKey: companyQueryKey(id ?? ""),
    queryFn: ({ signal }) => api.get<Company>(`/api/companies/${id}`, { signal }),
    enabled: !!id,
    ...(opts.fresh ? { staleTime: 0 } : {}),
  });
}
