/**
 * The All Permits list's sortable columns and name-filter limit. Kept out of shared/schemas so
 * the list page can read its URL without loading zod.
 */
export const PERMIT_SORT_FIELDS = [
  "permit_number",
  "permit_name",
  "agency",
  "permit_application_date",
  "expiration_date",
] as const;
export type PermitSortField = (typeof PERMIT_SORT_FIELDS)[number];

export const SORT_DIRECTIONS = ["asc", "desc"] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** Longest text the name filter sends. */
export const PERMIT_SEARCH_MAX = 200;
