import TablePagination from "@mui/material/TablePagination";
import { LIST_PAGE_SIZES } from "../lib/url-list-state.ts";

/** A paged list's footer: 'Per page' and the page, both in the URL (useUrlListState). */
export function ListPagination({
  total,
  page,
  pageSize,
  setParam,
}: {
  total: number;
  page: number;
  pageSize: number;
  setParam: (changes: Record<string, string>) => void;
}) {
  return (
    <TablePagination
      component="div"
      count={total}
      page={page - 1}
      rowsPerPage={pageSize}
      rowsPerPageOptions={LIST_PAGE_SIZES}
      onPageChange={(_e, p) => setParam({ page: p ? String(p + 1) : "" })}
      onRowsPerPageChange={(e) => setParam({ size: e.target.value })}
      labelRowsPerPage="Per page"
    />
  );
}
