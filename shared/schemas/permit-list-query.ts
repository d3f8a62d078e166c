import { z } from "zod";
import { PERMIT_LIMITS } from "../domain/permit-fields.ts";
import {
  DEFAULT_GROUPING,
  PERMIT_GROUPINGS,
  PERMIT_SORT_FIELDS,
  PERMIT_TILES,
  STATUS_FILTER_VALUES,
  TASK_FILTER_VALUES,
  type PermitSortField,
} from "../domain/permit-list.ts";
import { RECORD_TYPES } from "../domain/statuses.ts";
import {
  exportFormat,
  filterDate,
  filterId,
  filterText,
  optionalChoice,
  pageFields,
  sortDirection,
} from "./fields.ts";

// What the All Permits list, its summary and its export are asked with: the filters, the tile, the
// grouping, the sort and the page, exactly as the page keeps them in its URL.

export { PERMIT_SORT_FIELDS, type PermitSortField };

const flag = z
  .enum(["true", "false", "1", "0", ""], { message: "Must be true or false" })
  .optional()
  .transform((v) => v === "true" || v === "1");

/** Filters shared by the list, the summary and the export, exactly as the page keeps them in its URL. */
const PermitFilterFields = z.object({
  show_archived: flag,
  show_non_required: flag,
  record_type: z
    .union([z.enum(RECORD_TYPES, { message: "Must be permit or bond" }), z.literal("")])
    .optional()
    .transform((v) => (v ? v : null)),
  /** Searches permit number, permit name, agency, and project name and number. */
  q: filterText(PERMIT_LIMITS.searchText),
  /** A stored status; when set it replaces the Show Non-Required rule (N/A never shows). */
  status: optionalChoice(STATUS_FILTER_VALUES, "Unknown status"),
  project_id: filterId(),
  client_id: filterId(),
  /** An agency exactly as the filter's options list it (trimmed). */
  agency: filterText(PERMIT_LIMITS.agency),
  /** Expiration date range, both ends included. */
  expires_from: filterDate("Expires from"),
  expires_to: filterDate("Expires to"),
  /** The responsible person: a user id, or "me" for the signed-in user. */
  responsible: filterId({ also: ["me"], message: "Must be a user id or me" }),
  /** Issue 29: `due`: permits with an open task due within 7 days or overdue (as the 'Tasks Due' tile). */
  tasks: optionalChoice(TASK_FILTER_VALUES, "Unknown tasks filter").optional(),
});

/** An expiration range must not end before it starts (checked after the fields themselves). */
function checkExpiryRange(
  v: { expires_from: string | null; expires_to: string | null },
  ctx: z.RefinementCtx,
) {
  if (v.expires_from && v.expires_to && v.expires_to < v.expires_from) {
    ctx.addIssue({
      code: "custom",
      path: ["expires_to"],
      message: "Expires to cannot be before Expires from",
    });
  }
}

export const PermitFilterSchema = PermitFilterFields.superRefine(checkExpiryRange);
export type PermitFilter = z.output<typeof PermitFilterSchema>;

/** The list's own choices beyond the filters it shares with the summary (also the export's). */
const ListChoices = {
  /** A clicked tile: the list shows that tile's permits (the summary keeps counting all tiles). */
  tile: optionalChoice(PERMIT_TILES, "Unknown tile"),
  group: z.enum(PERMIT_GROUPINGS, { message: "Must be client_project or none" }).default(DEFAULT_GROUPING),
  /** Missing: creation order (created_at, then id; DESIGN.md 6.9). */
  sort: z.enum(PERMIT_SORT_FIELDS, { message: "Unknown sort column" }).optional(),
  dir: sortDirection(),
};

export const PermitListQuerySchema = PermitFilterFields.extend({
  ...ListChoices,
  ...pageFields(),
}).superRefine(checkExpiryRange);
export type PermitListQuery = z.output<typeof PermitListQuerySchema>;
/** The list's filters with its tile: what the list's rows (and the export) are chosen by. */
export type PermitListFilter = PermitFilter & { tile?: PermitListQuery["tile"] };

/** GET /api/permits/export: the list's view without paging, and the file format. */
export const PermitExportQuerySchema = PermitFilterFields.extend({
  ...ListChoices,
  format: exportFormat(),
}).superRefine(checkExpiryRange);
