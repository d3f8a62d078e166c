import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { BondList, BondListQuery } from "../../../../shared/schemas/bonds.ts";
import { api } from "../../../lib/api.ts";
import { permitKeys } from "../../../lib/query-keys.ts";

/**
 * The Bonds page's query hangs under the permits key: a bond is a permit row, so every change to a
 * permit or a bond's ledger (which invalidates "permits") refreshes this page too.
 */
export const bondsQueryKey = (query: BondListQuery) => [...permitKeys.all, "bonds", query] as const;

/** GET /api/bonds: one sorted page of bonds with the tiles and the exposure breakdowns of the whole view. */
export const bondsQueryOptions = (query: BondListQuery) =>
  queryOptions({
    queryKey: bondsQueryKey(query),
    queryFn: ({ signal }) => api.get<BondList>("/api/bonds", { query: { ...query }, signal }),
  });

export function useBonds(query: BondListQuery) {
  return useQuery({
    ...bondsQueryOptions(query),
    // Paging, sorting and filtering keep the current rows on screen until the next arrive.
    placeholderData: keepPreviousData,
  });
}
