import {
  BOND_SORT_FIELDS,
  BOND_STATUSES,
  type BondSortField,
  type BondStatus,
} from "../../../../shared/domain/bonds.ts";
import { DEFAULT_PAGE_SIZE } from "../../../../shared/domain/constants.ts";
import { GUARANTEE_TYPES, type GuaranteeType } from "../../../../shared/domain/statuses.ts";
import { BOND_LIMITS, type BondListQuery } from "../../../../shared/schemas/bonds.ts";
import { buildUrl } from "../../../lib/api.ts";

/**
 * The Bonds page's view lives in its URL, as the All Permits list's does: the API's own query
 * names and values, only those that differ from the defaults, so /bonds is the default view and
 * a link or bookmark shows the same filters, sort and page. Read by hand (no zod on the way in);
 * a value that does not parse falls back to its default.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const idOf = (v: string | null) => (v && UUID.test(v) ? v : null);
const isOneOf = <T extends string>(values: readonly T[], v: string | null): v is T =>
  v !== null && (values as readonly string[]).includes(v);

/** The filters and sort in the order they are written to the URL. */
const KEYS = [
  "q",
  "company_id",
  "surety_id",
  "client_id",
  "project_id",
  "status",
  "guarantee_type",
  "sort",
  "dir",
] as const;

export type ChangeBondQuery = (patch: Partial<BondListQuery>, opts?: { replace?: boolean }) => void;

export function readBondQuery(params: URLSearchParams): BondListQuery {
  const surety = params.get("surety_id");
  const status = params.get("status");
  const type = params.get("guarantee_type");
  const sort = params.get("sort");
  const page = Number(params.get("page"));
  return {
    q: params.get("q")?.trim().slice(0, BOND_LIMITS.search) || null,
    company_id: idOf(params.get("company_id")),
    surety_id: surety === "none" ? "none" : idOf(surety),
    client_id: idOf(params.get("client_id")),
    project_id: idOf(params.get("project_id")),
    status: isOneOf<BondStatus>(BOND_STATUSES, status) ? status : null,
    guarantee_type: isOneOf<GuaranteeType>(GUARANTEE_TYPES, type) ? type : null,
    sort: isOneOf<BondSortField>(BOND_SORT_FIELDS, sort) ? sort : undefined,
    dir: params.get("dir") === "desc" ? "desc" : "asc",
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    page_size: DEFAULT_PAGE_SIZE,
  };
}

/** The view's filters and sort as URL parameters (the exports take the same). */
export function bondViewParams(query: BondListQuery): Record<string, string> {
  const params: Record<string, string> = {};
  for (const key of KEYS) {
    const value = query[key];
    if (key === "dir" && (value !== "desc" || !query.sort)) continue;
    if (value !== null && value !== undefined && value !== "") params[key] = String(value);
  }
  return params;
}

export function writeBondQuery(query: BondListQuery): URLSearchParams {
  const params = new URLSearchParams(bondViewParams(query));
  if (query.page > 1) params.set("page", String(query.page));
  return params;
}

/** Export CSV / Export Excel: the current view (filters and sort), every page. */
export const bondExportUrl = (query: BondListQuery, format: "csv" | "xlsx") =>
  buildUrl("/api/bonds/export", { format, ...bondViewParams(query) });

/** Bond Schedule: the open bonds within the current filters, as sureties and lenders ask for them. */
export function bondScheduleUrl(query: BondListQuery): string {
  const { sort: _sort, dir: _dir, ...filters } = bondViewParams(query);
  return buildUrl("/api/bonds/schedule.xlsx", filters);
}

/** A click on a column header: a new column sorts ascending; the current one flips direction. */
export function nextBondSort(
  query: BondListQuery,
  field: BondSortField,
): Pick<BondListQuery, "sort" | "dir"> {
  if (query.sort !== field) return { sort: field, dir: "asc" };
  return { sort: field, dir: query.dir === "asc" ? "desc" : "asc" };
}

/** How many filters are set (the phone's Filters button says). */
export const bondFilterCount = (query: BondListQuery) =>
  [
    query.company_id,
    query.surety_id,
    query.client_id,
    query.project_id,
    query.status,
    query.guarantee_type,
  ].filter(Boolean).length;

/** What 'Clear Filters' sets (issue 25): every filter and the search back to none; the sort stays. */
export const CLEARED_BOND_FILTERS: Partial<BondListQuery> = {
  q: null,
  company_id: null,
  surety_id: null,
  client_id: null,
  project_id: null,
  status: null,
  guarantee_type: null,
};

/** True when a filter or the search is set. */
export const isBondFiltered = (query: BondListQuery) => !!query.q || bondFilterCount(query) > 0;
