import type { ScopeContents } from "../../../../shared/schemas/scope-contents.ts";
import { filterOf, readListView } from "../components/list-params.ts";
import { usePermitSummary } from "./get-permit-summary.ts";

/** The default view's filters: the same summary (and query key) as /permits without parameters. */
const DEFAULT_FILTER = filterOf(readListView(new URLSearchParams()).query);

/**
 * What exists within the user's scope (issue 25): the getting-started steps (the Admin Dashboard,
 * the new-permit form). Read from the permit summary of the list's default view, whose answer the
 * list shares.
 */
export function useScopeContents(enabled = true): { data: ScopeContents | undefined; isPending: boolean } {
  const summary = usePermitSummary(DEFAULT_FILTER, enabled);
  return { data: summary.data?.in_scope, isPending: summary.isPending };
}
