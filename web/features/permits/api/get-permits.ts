import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { PermitList, PermitListQuery } from "../../../../shared/schemas/permits.ts";
import { api } from "../../../lib/api.ts";
import { permitKeys } from "./keys.ts";

/** GET /api/permits: one sorted, filtered page, grouped by client and project. */
export const permitsQueryOptions = (query: PermitListQuery) =>
  queryOptions({
    queryKey: permitKeys.list(query),
    queryFn: ({ signal }) => api.get<PermitList>("/api/permits", { query: { ...query }, signal }),
  });

export function usePermits(query: PermitListQuery) {
  return useQuery({
    ...permitsQueryOptions(query),
    // Paging, sorting and typing a filter keep the current rows on screen until the next arrive.
    placeholderData: keepPreviousData,
  });
}
