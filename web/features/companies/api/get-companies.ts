import { useQuery } from "@tanstack/react-query";
import type { CompanyList } from "../../../../shared/schemas/companies.ts";
import { api } from "../../../lib/api.ts";

/** Every query about companies starts with this key, so one invalidation refreshes them all. */
export const companiesQueryKey = ["companies"] as const;

/**
 * GET /api/companies: the companies the user may see, the default time zone, and whether it may
 * create. The one lookup of companies: the admin screens and every company picker share it.
 */
export function useCompanies({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: [...companiesQueryKey, "list"],
    queryFn: ({ signal }) => api.get<CompanyList>("/api/companies", { signal }),
    enabled,
  });
}
