import { DEFAULT_PAGE_SIZE } from "../../../../shared/domain/constants.ts";
import { isIsoDate } from "../../../../shared/domain/dates.ts";
import {
  DEFAULT_GROUPING,
  PERMIT_GROUPINGS,
  PERMIT_SEARCH_MAX,
  PERMIT_SORT_FIELDS,
  PERMIT_TILES,
  SAVED_VIEW_PARAMS,
  STATUS_FILTER_VALUES,
  TASK_FILTER_VALUES,
  type PermitGrouping,
  type PermitSortField,
  type PermitTile,
  type SavedViewParams,
  type StatusFilterValue,
  type TaskFilterValue,
} from "../../../../shared/domain/permit-list.ts";
import { RECORD_TYPES, type RecordType } from "../../../../shared/domain/statuses.ts";
import type { PermitFilter, PermitListQuery } from "../../../../shared/schemas/permits.ts";

/**
 * The All Permits view lives in the URL (bookmarkable, shareable, and what a saved view keeps):
 * the same names and values as the API's query string, plus `charts=1` when the Analytics
 * Dashboard is open. Only values that differ from the defaults appear, so /permits is the
 * default view.
 *
 * Read by hand rather than with PermitListQuerySchema: the page would otherwise load zod before
 * its first request (list-params.test.ts checks that both read a URL alike).
 */
export interface ListView {
  query: PermitListQuery;
  showCharts: boolean;
}

const isOneOf = <T extends string>(values: readonly T[], v: string | null): v is T =>
  v !== null && (values as readonly string[]).includes(v);
const flag = (v: string | null) => v === "1" || v === "true";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const idOf = (v: string | null) => (v && UUID.test(v) ? v : null);
const dateOf = (v: string | null) => (v && isIsoDate(v) ? v : null);
/** The Responsible filter: a user id or "me" (issue 11). */
const responsibleOf = (v: string | null) => (v === "me" ? v : idOf(v));
const textOf = (v: string | null) => v?.trim().slice(0, PERMIT_SEARCH_MAX) || null;

/** How the list's controls change the view: a patch of the query (page 1 unless they say). */
export type ChangeQuery = (patch: Partial<PermitListQuery>, opts?: { replace?: boolean }) => void;

/** Reads the view from the URL; a value that does not parse (hand-edited link) falls back to its default. */
export function readListView(params: URLSearchParams): ListView {
  const type = params.get("record_type");
  const sort = params.get("sort");
  const tile = params.get("tile");
  const status = params.get("status");
  const group = params.get("group");
  const tasks = params.get("tasks");
  const page = Number(params.get("page"));
  const expiresFrom = dateOf(params.get("expires_from"));
  let expiresTo = dateOf(params.get("expires_to"));
  // A range that ends before it starts (the API refuses it): keep its start.
  if (expiresFrom && expiresTo && expiresTo < expiresFrom) expiresTo = null;
  return {
    query: {
      show_archived: flag(params.get("show_archived")),
      show_non_required: flag(params.get("show_non_required")),
      record_type: isOneOf<RecordType>(RECORD_TYPES, type) ? type : null,
      q: textOf(params.get("q")),
      status: isOneOf<StatusFilterValue>(STATUS_FILTER_VALUES, status) ? status : null,
      project_id: idOf(params.get("project_id")),
      client_id: idOf(params.get("client_id")),
      agency: textOf(params.get("agency")),
      expires_from: expiresFrom,
      expires_to: expiresTo,
      responsible: responsibleOf(params.get("responsible")),
      // Absent unless asked (as the API reads it).
      tasks: isOneOf<TaskFilterValue>(TASK_FILTER_VALUES, tasks) ? tasks : undefined,
      tile: isOneOf<PermitTile>(PERMIT_TILES, tile) ? tile : null,
      group: isOneOf<PermitGrouping>(PERMIT_GROUPINGS, group) ? group : DEFAULT_GROUPING,
      sort: isOneOf<PermitSortField>(PERMIT_SORT_FIELDS, sort) ? sort : undefined,
      dir: params.get("dir") === "desc" ? "desc" : "asc",
      page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
      // The page size is the server's default; links do not choose it.
      page_size: DEFAULT_PAGE_SIZE,
    },
    showCharts: params.get("charts") === "1",
  };
}

/** The view's filters, sort and grouping as URL parameters (what a saved view keeps). */
export function viewParams(query: PermitListQuery): SavedViewParams {
  const params: SavedViewParams = {};
  if (query.q) params.q = query.q;
  if (query.record_type) params.record_type = query.record_type;
  if (query.show_archived) params.show_archived = "1";
  if (query.show_non_required) params.show_non_required = "1";
  if (query.tile) params.tile = query.tile;
  if (query.status) params.status = query.status;
  if (query.project_id) params.project_id = query.project_id;
  if (query.client_id) params.client_id = query.client_id;
  if (query.agency) params.agency = query.agency;
  if (query.expires_from) params.expires_from = query.expires_from;
  if (query.expires_to) params.expires_to = query.expires_to;
  if (query.responsible) params.responsible = query.responsible;
  if (query.tasks) params.tasks = query.tasks;
  if (query.group !== DEFAULT_GROUPING) params.group = query.group;
  if (query.sort) {
    params.sort = query.sort;
    if (query.dir === "desc") params.dir = "desc";
  }
  return params;
}

export function writeListView(view: ListView): URLSearchParams {
  const params = new URLSearchParams();
  // Parameters in a fixed order, so equal views write equal URLs.
  const kept = viewParams(view.query);
  for (const key of SAVED_VIEW_PARAMS) if (kept[key]) params.set(key, kept[key]);
  if (view.query.page > 1) params.set("page", String(view.query.page));
  if (view.showCharts) params.set("charts", "1");
  return params;
}

/** True when the view shows what the saved `params` say (page and charts aside). */
export function isSameView(query: PermitListQuery, params: SavedViewParams): boolean {
  const current = viewParams(query);
  const wanted = viewParams(readListView(new URLSearchParams(params as Record<string, string>)).query);
  return SAVED_VIEW_PARAMS.every((k) => (current[k] ?? "") === (wanted[k] ?? ""));
}

/** The filters the summary shares with the list: everything but the tile, grouping, sort and page. */
export function filterOf(query: PermitListQuery): PermitFilter {
  const {
    show_archived,
    show_non_required,
    record_type,
    q,
    status,
    project_id,
    client_id,
    agency,
    expires_from,
    expires_to,
    responsible,
    tasks,
  } = query;
  return {
    show_archived,
    show_non_required,
    record_type,
    q,
    status,
    project_id,
    client_id,
    agency,
    expires_from,
    expires_to,
    responsible,
    tasks,
  };
}

/** What 'Clear Filters' sets: every filter and the tile back to none (grouping and sort stay). */
export const CLEARED_FILTERS: Partial<PermitListQuery> = {
  q: null,
  record_type: null,
  status: null,
  project_id: null,
  client_id: null,
  agency: null,
  expires_from: null,
  expires_to: null,
  responsible: null,
  tasks: null,
  tile: null,
};

/** True when any filter 'Clear Filters' clears is set. */
export const isFiltered = (query: PermitListQuery): boolean =>
  Object.keys(CLEARED_FILTERS).some((key) => !!query[key as keyof PermitListQuery]);

/** How many of the filters beyond search, type and the tiles are set (the phone's Filters button says). */
export function extraFilterCount(query: PermitListQuery): number {
  return [
    query.status,
    query.project_id,
    query.client_id,
    query.agency,
    query.expires_from,
    query.expires_to,
    query.responsible,
    query.tasks,
    query.group !== DEFAULT_GROUPING,
    query.show_archived,
    query.show_non_required,
  ].filter(Boolean).length;
}

/** A click on a column header: a new column sorts ascending; the current one flips direction. */
export function nextSort(
  query: PermitListQuery,
  field: PermitSortField,
): Pick<PermitListQuery, "sort" | "dir"> {
  if (query.sort !== field) return { sort: field, dir: "asc" };
  return { sort: field, dir: query.dir === "asc" ? "desc" : "asc" };
}
