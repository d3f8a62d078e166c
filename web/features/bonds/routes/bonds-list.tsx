import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import LinearProgress from "@mui/material/LinearProgress";
import Pagination from "@mui/material/Pagination";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { EMPTY_STATES } from "../../../../shared/domain/empty-states.ts";
import type { BondListQuery } from "../../../../shared/schemas/bonds.ts";
import { AccessDenied } from "../../../components/access-denied.tsx";
import { GettingStarted, ListEmptyState } from "../../../components/getting-started.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { useIsPhone } from "../../../components/record-cards.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { formatCount } from "../../../lib/format.ts";
import { useCan } from "../../../lib/session.tsx";
import { useBonds } from "../api/get-bonds.ts";
import {
  CLEARED_BOND_FILTERS,
  isBondFiltered,
  readBondQuery,
  writeBondQuery,
  type ChangeBondQuery,
} from "../components/bond-list-params.ts";
import { BondTiles } from "../components/bond-tiles.tsx";
import { BondCards, BondsTable } from "../components/bonds-table.tsx";
import { BondExports, BondsToolbar } from "../components/bonds-toolbar.tsx";
import { ExposureBreakdowns } from "../components/exposure-breakdowns.tsx";

/**
 * Bonds (/bonds, issue 12): how much bonding is outstanding and with whom. Tiles over the whole
 * view, exposure by surety (against each surety's aggregate limit), by client and by project, then
 * the bonds, filtered, sorted and paged by the server, with the view in the URL as on /permits.
 * Every staff role and client-users (their clients' bonds; no collateral, no limits).
 */
export default function BondsListPage() {
  const canView = useCan("bonds.view");
  const seesLimits = useCan("sureties.viewLimits");
  const showCompany = useCan("allCompanies");
  const isPhone = useIsPhone();
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => readBondQuery(params), [params]);
  const setQuery = useCallback(
    (next: BondListQuery, opts?: { replace?: boolean }) =>
      setParams(writeBondQuery(next), { replace: opts?.replace }),
    [setParams],
  );
  // Any filter or sort change starts again at page 1.
  const changeQuery: ChangeBondQuery = useCallback(
    (patch, opts) => setQuery({ ...query, page: 1, ...patch }, opts),
    [setQuery, query],
  );
  const list = useBonds(query);
  if (!canView) return <AccessDenied />;

  const data = list.data;
  const items = data?.items ?? [];
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.page_size)) : 1;
  const firstRow = data ? (data.page - 1) * data.page_size + 1 : 0;
  const showCollateral = !!data && data.summary.collateral_held !== null;
  // Issue 25: "nothing yet" (no bond at all in scope: no tiles, analytics or filters; the
  // getting-started steps while there is no permit either) against "nothing matches these filters".
  const inScope = data?.in_scope;
  const hasNothingYet = !!inScope && !inScope.bonds;
  const viewProps = {
    items,
    query,
    showCompany,
    showCollateral,
    onSort: (sort: BondListQuery["sort"], dir: BondListQuery["dir"]) => changeQuery({ sort, dir }),
  };
  return (
    <>
      <PageHeader title="Bonds" />
      {list.isError ? (
        <Alert severity="error" variant="filled" sx={{ mb: 2 }}>
          {errorMessage(list.error)}
        </Alert>
      ) : null}
      {hasNothingYet ? (
        inScope.getting_started && !inScope.permits ? (
          <GettingStarted steps={inScope.getting_started} />
        ) : (
          <Paper variant="outlined" component="section" aria-label="Bonds list">
            <ListEmptyState text={EMPTY_STATES.bonds.none} />
          </Paper>
        )
      ) : (
        <>
          {data && data.currency === null && data.total > 0 ? (
            <Alert severity="info" sx={{ mb: 2 }}>
              These bonds are in more than one currency, so the totals are shown per currency: choose a
              company to see its own.
            </Alert>
          ) : null}
          <BondTiles
            summary={data?.summary}
            currency={data?.currency ?? null}
            byCurrency={data?.totals_by_currency ?? []}
          />
          <ExposureBreakdowns data={data} showLimits={seesLimits} onFilter={(patch) => changeQuery(patch)} />
          <BondsToolbar query={query} onChange={changeQuery} canExport={!!data?.can.export} />
        </>
      )}
      {hasNothingYet ? null : (
        <Paper
          variant="outlined"
          component="section"
          aria-label="Bonds list"
          aria-busy={list.isFetching}
          data-stale={list.isPlaceholderData || undefined}
          sx={{ overflow: "hidden" }}
        >
          <Box sx={{ height: 4 }}>
            {list.isFetching ? <LinearProgress aria-label="Loading bonds" /> : null}
          </Box>
          {list.isPending ? (
            <Box sx={{ p: 2 }} aria-busy="true">
              {Array.from({ length: 6 }, (_, i) => (
                <Skeleton key={i} height={36} />
              ))}
            </Box>
          ) : items.length === 0 && !list.isError ? (
            <ListEmptyState
              text={EMPTY_STATES.bonds.filtered}
              onClear={isBondFiltered(query) ? () => changeQuery(CLEARED_BOND_FILTERS) : undefined}
            />
          ) : isPhone ? (
            <BondCards {...viewProps} />
          ) : (
            <BondsTable {...viewProps} />
          )}
        </Paper>
      )}
      {data && data.total > 0 ? (
        <Box
          sx={{
            display: "flex",
            flexWrap: "wrap",
            alignItems: "center",
            justifyContent: "space-between",
            gap: 2,
            mt: 2,
          }}
        >
          <Typography variant="body2" color="text.secondary">
            {formatCount(firstRow)}–{formatCount(firstRow + items.length - 1)} of {formatCount(data.total)}
          </Typography>
          {pageCount > 1 ? (
            <Pagination
              count={pageCount}
              page={Math.min(query.page, pageCount)}
              onChange={(_e, page) => {
                setQuery({ ...query, page });
                window.scrollTo({ top: 0 });
              }}
              color="primary"
              shape="rounded"
              siblingCount={isPhone ? 0 : 1}
            />
          ) : null}
        </Box>
      ) : null}
      {isPhone && !hasNothingYet && data?.can.export ? (
        <Box sx={{ mt: 2 }}>
          <BondExports query={query} />
        </Box>
      ) : null}
    </>
  );
}
