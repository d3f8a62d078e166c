import { useQuery } from "@tanstack/react-query";
import type { PermitFilterOptions } from "../../../../shared/schemas/permits.ts";
import { api } from "../../../lib/api.ts";
import { permitKeys } from "./keys.ts";

/** GET /api/permits/filter-options: the Project, Client and Agency filters' choices. */
export function usePermitFilterOptions(enabled = true) {
  return useQuery({
    enabled,
    queryKey: permitKeys.filterOptions,
    queryFn: ({ signal }) => api.get<PermitFilterOptions>("/api/permits/filter-options", { signal }),
    // Projects and clients change rarely; a permit change invalidates everything under "permits".
    staleTime: 5 * 60_000,
  });
}
