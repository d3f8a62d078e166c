import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { PermitFilter, PermitSummary } from "../../../../shared/schemas/permits.ts";
import { api } from "../../../lib/api.ts";
import { permitKeys } from "./keys.ts";

/** GET /api/permits/summary: tiles and chart data over the same filters as the list. */
export function usePermitSummary(filter: PermitFilter, enabled = true) {
  return useQuery({
    enabled,
    queryKey: permitKeys.summary(filter),
    queryFn: ({ signal }) => api.get<PermitSummary>("/api/permits/summary", { query: { ...filter }, signal }),
    placeholderData: keepPreviousData,
  });
}
