import type { PermitListQuery } from "../../../../shared/schemas/permits.ts";
import { SavedViewsBar } from "../../saved-views/index.ts";
import { isSameView, viewParams } from "./list-params.ts";

/** The toolbar's views bar (a lazy part of the list): the saved views, for the list's query. */
export default function PermitViewsBar({
  query,
  onApply,
}: {
  query: PermitListQuery;
  onApply: (params: URLSearchParams) => void;
}) {
  return (
    <SavedViewsBar
      params={viewParams(query)}
      isCurrent={(params) => isSameView(query, params)}
      onApply={onApply}
    />
  );
}
