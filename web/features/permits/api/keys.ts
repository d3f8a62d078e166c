import type { PermitFilter, PermitListQuery } from "../../../../shared/schemas/permits.ts";
import { permitKeys as sharedPermitKeys } from "../../../lib/query-keys.ts";

/**
 * Query keys of the permits feature: the permit and its cards' keys (lib/query-keys.ts, which the
 * features of those cards share) and the list's, the form's and the filters' own, all under
 * ["permits"], so a create, update or delete invalidates everything at once.
 */
export const permitKeys = {
  ...sharedPermitKeys,
  list: (query: PermitListQuery) => ["permits", "list", query] as const,
  summary: (filter: PermitFilter) => ["permits", "summary", filter] as const,
  formOptions: (companyId: string | null, projectId: string | null) =>
    ["permits", "form-options", companyId, projectId] as const,
  agencies: (companyId: string | null) => ["permits", "agencies", companyId] as const,
  filterOptions: ["permits", "filter-options"] as const,
};

export { afterPermitChange } from "../../../lib/query-keys.ts";
