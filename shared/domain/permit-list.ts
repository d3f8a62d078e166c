/**
 * The All Permits list's vocabulary: sortable columns, the work-queue filters (tiles, status,
 * grouping) and the built-in saved views. Kept out of shared/schemas so the list page can read its
 * URL without loading zod.
 */
export const PERMIT_SORT_FIELDS = [
  "permit_number",
  "permit_name",
  "agency",
  "permit_application_date",
  "expiration_date",
  "renew_by_date",
] as const;
export type PermitSortField = (typeof PERMIT_SORT_FIELDS)[number];

export const SORT_DIRECTIONS = ["asc", "desc"] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** Longest text the search box sends. */
export const PERMIT_SEARCH_MAX = 200;

/**
 * The summary tiles that filter the list when clicked (issue 14). Total Permits is the tile that
 * clears the choice. Each has a rule the server applies in SQL against the company's "today":
 * expiring_soon: expires today or within 30 days; expired: expired before today; active and
 * in_review: the list categories of spec section 4; closed: has a close date; renewal_due (issue
 * 11): a renew-by date within 30 days or passed, on a permit not closed (renewing moves it on);
 * review (issue 27, staff): a document request of the permit awaits review (submitted by the party);
 * tasks (issue 29, 'Tasks Due'): the permit has an open condition task due within TASKS_DUE_DAYS
 * days (company-local dates) or overdue. The tile counts permits, not tasks (it filters a list of permits).
 */
export const PERMIT_TILES = [
  "expiring_soon",
  "expired",
  "active",
  "in_review",
  "closed",
  "renewal_due",
  "review",
  "tasks",
] as const;
export type PermitTile = (typeof PERMIT_TILES)[number];

/** The tiles' captions; the first four are the spec's. */
export const PERMIT_TILE_LABELS: Record<PermitTile, string> = {
  expiring_soon: "Expiring Soon",
  expired: "Expired",
  active: "Active",
  in_review: "In Review",
  closed: "Closed",
  renewal_due: "Renewal Due",
  // The 'Review' tile, in words apart from the spec's 'In Review' stage (and on one line).
  review: "To Review",
  tasks: "Tasks Due",
};

/** The list's Tasks filter (issue 29): `tasks=due` shows the permits the 'Tasks Due' tile counts. */
export const TASK_FILTER_VALUES = ["due"] as const;
export type TaskFilterValue = (typeof TASK_FILTER_VALUES)[number];

/** Stored statuses the Status filter offers (N/A never shows in the list). */
export const STATUS_FILTER_VALUES = ["Required", "In Waiting", "Pending", "Expired"] as const;
export type StatusFilterValue = (typeof STATUS_FILTER_VALUES)[number];

/** Group by: the spec's client-then-project groups, or none (one flat list in the chosen order). */
export const PERMIT_GROUPINGS = ["client_project", "none"] as const;
export type PermitGrouping = (typeof PERMIT_GROUPINGS)[number];
export const DEFAULT_GROUPING: PermitGrouping = "client_project";
export const PERMIT_GROUPING_LABELS: Record<PermitGrouping, string> = {
  client_project: "Client and project",
  none: "None",
};

/**
 * The URL parameters a saved view keeps: every filter, the sort and the grouping (not the page
 * or whether the charts are open). Values are the URL's own strings.
 */
export const SAVED_VIEW_PARAMS = [
  "q",
  "record_type",
  "show_archived",
  "show_non_required",
  "tile",
  "status",
  "project_id",
  "client_id",
  "agency",
  "expires_from",
  "expires_to",
  "responsible",
  "tasks",
  "group",
  "sort",
  "dir",
] as const;
export type SavedViewParam = (typeof SAVED_VIEW_PARAMS)[number];
export type SavedViewParams = Partial<Record<SavedViewParam, string>>;

/** Views every user has without saving them. */
export const BUILT_IN_VIEWS: readonly { key: string; name: string; params: SavedViewParams }[] = [
  {
    key: "expiring-30",
    name: "Expiring in 30 days",
    params: { tile: "expiring_soon", group: "none", sort: "expiration_date" },
  },
  {
    key: "expired",
    name: "Expired",
    params: { tile: "expired", group: "none", sort: "expiration_date", dir: "desc" },
  },
];

/** Most views one user may save. */
export const SAVED_VIEWS_MAX = 50;
export const SAVED_VIEW_NAME_MAX = 60;
