import { DEFAULT_PAGE_SIZE } from "../../../../shared/domain/constants.ts";
import {
  PERMIT_SEARCH_MAX,
  PERMIT_SORT_FIELDS,
  type PermitSortField,
} from "../../../../shared/domain/permit-list.ts";
import { RECORD_TYPES, type RecordType } from "../../../../shared/domain/statuses.ts";
import type { PermitFilter, PermitListQuery } from "../../../../shared/schemas/permits.ts";

/**
 * The All Permits view lives in the URL (bookmarkable, shareable): the same names and values as
 * the API's query string, plus `charts=1` when the Analytics Dashboard is open. Only values that
 * differ from the defaults appear, so /permits is the default view.
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

/** Reads the view from the URL; a value that does not parse (hand-edited link) falls back to its default. */
export function readListView(params: URLSearchParams): ListView {
  const type = params.get("record_type");
  const sort = params.get("sort");
  const page = Number(params.get("page"));
  const q = params.get("q")?.trim().slice(0, PERMIT_SEARCH_MAX);
  return {
    query: {
      show_archived: flag(params.get("show_archived")),
      show_non_required: flag(params.get("show_non_required")),
      record_type: isOneOf<RecordType>(RECORD_TYPES, type) ? type : null,
      q: q || null,
      sort: isOneOf<PermitSortField>(PERMIT_SORT_FIELDS, sort) ? sort : undefined,
      dir: params.get("dir") === "desc" ? "desc" : "asc",
      page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
      // The page size is the server's default; links do not choose it.
      page_size: DEFAULT_PAGE_SIZE,
    },
    showCharts: params.get("charts") === "1",
  };
}

export function writeListView(view: ListView): URLSearchParams {
  const { query } = view;
  const params = new URLSearchParams();
  if (query.q) params.set("q", query.q);
  if (query.record_type) params.set("record_type", query.record_type);
  if (query.show_archived) params.set("show_archived", "1");
  if (query.show_non_required) params.set("show_non_required", "1");
  if (query.sort) {
    params.set("sort", query.sort);
    if (query.dir === "desc") params.set("dir", "desc");
  }
  if (query.page > 1) params.set("page", String(query.page));
  if (view.showCharts) params.set("charts", "1");
  return params;
}

/** The filters the summary shares with the list. */
export function filterOf(query: PermitListQuery): PermitFilter {
  const { show_archived, show_non_required, record_type, q } = query;
  return { show_archived, show_non_required, record_type, q };
}

/** A click on a column header: a new column sorts ascending; the current one flips direction. */
export function nextSort(
  query: PermitListQuery,
  field: PermitSortField,
): Pick<PermitListQuery, "sort" | "dir"> {
  if (query.sort !== field) return { sort: field, dir: "asc" };
  return { sort: field, dir: query.dir === "asc" ? "desc" : "asc" };
}
