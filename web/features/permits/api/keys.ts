import type { PermitFilter, PermitListQuery } from "../../../../shared/schemas/permits.ts";
import { suretiesQueryKey } from "../../sureties/index.ts";

/**
 * Query keys of the permits feature. Everything hangs under ["permits"], so a create, update or
 * delete invalidates the list, the dashboard, the form data and the detail page at once. The
 * detail page's cards (comments, attachments, reminders) hang under ["permits", "detail", id], so
 * a change made elsewhere refreshes the whole page.
 */
export const permitKeys = {
  all: ["permits"] as const,
  list: (query: PermitListQuery) => ["permits", "list", query] as const,
  summary: (filter: PermitFilter) => ["permits", "summary", filter] as const,
  detail: (id: string) => ["permits", "detail", id] as const,
  audit: (id: string) => ["permits", "detail", id, "audit"] as const,
  comments: (id: string) => ["permits", "detail", id, "comments"] as const,
  attachments: (id: string) => ["permits", "detail", id, "attachments"] as const,
  reminders: (id: string) => ["permits", "detail", id, "reminders"] as const,
  formOptions: (companyId: string | null, projectId: string | null) =>
    ["permits", "form-options", companyId, projectId] as const,
  agencies: (companyId: string | null) => ["permits", "agencies", companyId] as const,
  filterOptions: ["permits", "filter-options"] as const,
};

/**
 * What a permit change makes stale elsewhere: project dashboards and admin counts show permits too,
 * and a bond saved with a new surety name adds that surety (issue 12). The Bonds page's queries hang
 * under "permits" (a bond is a permit row).
 */
export const afterPermitChange = [permitKeys.all, ["projects"], suretiesQueryKey] as const;
