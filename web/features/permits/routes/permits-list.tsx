import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { usePrefetchQuery } from "@tanstack/react-query";
import { Link as RouterLink, useSearchParams } from "react-router";
import InsertChartOutlined from "@mui/icons-material/InsertChartOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import LinearProgress from "@mui/material/LinearProgress";
import Pagination from "@mui/material/Pagination";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import { EMPTY_STATES } from "../../../../shared/domain/empty-states.ts";
import type { PermitListItem, PermitListQuery } from "../../../../shared/schemas/permits.ts";
import { GettingStarted, ListEmptyState } from "../../../components/getting-started.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { formatCount } from "../../../lib/format.ts";
import { lazyWithPreload, useHasOpened } from "../../../lib/on-demand.ts";
import { paths } from "../../../lib/paths.ts";
import { useCan } from "../../../lib/session.tsx";
import { useDeletePermit } from "../api/delete-permit.ts";
import { usePermitSummary } from "../api/get-permit-summary.ts";
import { permitsQueryOptions, usePermits } from "../api/get-permits.ts";
import {
  CLEARED_FILTERS,
  filterOf,
  isFiltered,
  readListView,
  writeListView,
  type ChangeQuery,
  type ListView,
} from "../components/list-params.ts";
import { URGENCY_LABELS, urgencyBackground } from "../components/permit-row-parts.tsx";
import { PermitsTable } from "../components/permits-table.tsx";
import { PermitExports, PermitsToolbar } from "../components/permits-toolbar.tsx";
import { SummaryTiles } from "../components/summary-tiles.tsx";

// The charts (recharts is most of this page's weight) come when they are first shown: the panel
// is fetched when the pointer comes near 'Show Charts', recharts when the panel opens.
const { Component: AnalyticsPanel, preload: preloadAnalytics } = lazyWithPreload(
  () => import("../components/analytics-panel.tsx"),
);
// The delete question (MUI's Dialog and its modal machinery) is fetched when first asked.
const ConfirmDialog = lazy(() =>
  import("../../../components/confirm-dialog.tsx").then((m) => ({ default: m.ConfirmDialog })),
);
// The cards (a phone's view of the rows) are fetched on a phone only, alongside the rows.
const loadCards = () => import("../components/permit-cards.tsx");
const PermitCards = lazy(() => loadCards().then((m) => ({ default: m.PermitCards })));

/** What the list shows while its rows (or the cards' code) are on their way. */
function RowsSkeleton() {
  return (
    <Box sx={{ p: 2 }} aria-busy="true">
      {Array.from({ length: 6 }, (_, i) => (
        <Skeleton key={i} height={36} />
      ))}
    </Box>
  );
}

/** All Permits (/permits, spec section 2): dashboard, filters and the grouped, paged table. */
export default function PermitsListPage() {
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down("md"));
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => readListView(params), [params]);
  const { query } = view;
  // The rows are what the user waits for: ask for them before the rest of the page renders.
  usePrefetchQuery(permitsQueryOptions(query));
  const canCreate = useCan("permits.create");
  const showCompany = useCan("allCompanies");

  const setView = useCallback(
    (next: ListView, opts?: { replace?: boolean }) =>
      setParams(writeListView(next), { replace: opts?.replace }),
    [setParams],
  );
  // Any filter or sort change starts again at page 1.
  const changeQuery: ChangeQuery = useCallback(
    (patch, opts) => setView({ ...view, query: { ...query, page: 1, ...patch } }, opts),
    [setView, view, query],
  );
  // A saved view replaces the filters, sort and grouping; the charts stay as they are.
  const applyView = useCallback(
    (params: URLSearchParams) => setView({ ...readListView(params), showCharts: view.showCharts }),
    [setView, view.showCharts],
  );

  const list = usePermits(query);
  // Asked for once the first rows are in: the rows are what the user waits for, and the embedded
  // database answers one query at a time.
  const summary = usePermitSummary(filterOf(query), list.data !== undefined || list.isError);
  const remove = useDeletePermit();
  const [doomed, setDoomed] = useState<PermitListItem | null>(null);
  const hasAsked = useHasOpened(!!doomed);
  const hasShownCharts = useHasOpened(view.showCharts);
  // Charts shown from the start (a link with charts=1) hold their room while their code comes.
  const [chartsAtStart] = useState(view.showCharts);
  // On a phone the cards' code is fetched at once, alongside the rows.
  useEffect(() => {
    if (isPhone) void loadCards().catch(() => undefined);
  }, [isPhone]);

  const pageCount = list.data ? Math.max(1, Math.ceil(list.data.total / list.data.page_size)) : 1;
  const firstRow = list.data ? (list.data.page - 1) * list.data.page_size + 1 : 0;
  const rowsOnPage =
    (list.data?.items.length ?? 0) +
    (list.data?.groups.reduce((n, g) => n + g.projects.reduce((m, p) => m + p.permits.length, 0), 0) ?? 0);
  // Issue 25: "nothing yet" (no permit at all in scope: the getting-started steps, and no tiles,
  // charts or filters until there is data) against "nothing matches these filters". The summary
  // says which (its `in_scope` is the same whatever the filters, so an earlier answer holds too).
  const inScope = summary.data?.in_scope;
  const isListEmpty = list.data?.total === 0;
  const hasNothingYet = isListEmpty && inScope?.permits === false;
  const showsControls = !isListEmpty || inScope?.permits === true;
  const results = useRef<HTMLElement>(null);
  const viewProps = {
    groups: list.data?.groups ?? [],
    items: list.data?.items ?? [],
    groupBy: list.data?.group_by ?? query.group,
    query,
    showCompany,
    onSort: (sort: PermitListQuery["sort"], dir: PermitListQuery["dir"]) => changeQuery({ sort, dir }),
    onDelete: (permit: PermitListItem) => {
      remove.reset();
      setDoomed(permit);
    },
  };
  const analytics = (
    <Paper variant="outlined" component="section" aria-labelledby="analytics-heading" sx={{ mb: 2 }}>
      <Box sx={{ display: "flex", alignItems: "center", justifyContent: "space-between", px: 2, py: 1 }}>
        <Typography id="analytics-heading" variant="h2" sx={{ fontSize: "1.1rem" }}>
          Analytics Dashboard
        </Typography>
        <Button
          startIcon={<InsertChartOutlined />}
          aria-expanded={view.showCharts}
          aria-controls="analytics-charts"
          onPointerEnter={preloadAnalytics}
          onFocus={preloadAnalytics}
          sx={{ whiteSpace: "nowrap", flexShrink: 0 }}
          onClick={() => setView({ ...view, showCharts: !view.showCharts }, { replace: true })}
        >
          {view.showCharts ? "Hide Charts" : "Show Charts"}
        </Button>
      </Box>
      {hasShownCharts ? (
        <Suspense
          fallback={
            chartsAtStart ? (
              <Box sx={{ px: 2, pb: 2 }}>
                <Skeleton variant="rounded" height={300} />
              </Box>
            ) : null
          }
        >
          <AnalyticsPanel open={view.showCharts} slideIn={!chartsAtStart} summary={summary.data} />
        </Suspense>
      ) : null}
    </Paper>
  );

  return (
    <>
      <PageHeader
        title="All Permits"
        actions={
          canCreate ? (
            <Button variant="contained" component={RouterLink} to={paths.newPermit}>
              + New Permit
            </Button>
          ) : null
        }
      />

      {!showsControls ? null : summary.isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorMessage(summary.error)}
        </Alert>
      ) : (
        <SummaryTiles
          summary={summary.data}
          selected={query.tile}
          onSelect={(tile) => {
            changeQuery({ tile });
            // On a phone the results are below the fold: a tap shows them (issue 25).
            if (isPhone) requestAnimationFrame(() => results.current?.scrollIntoView({ block: "start" }));
          }}
        />
      )}

      {/* The charts come after the list on a phone: the work first (issue 25). */}
      {showsControls && !isPhone ? analytics : null}
      {showsControls ? <PermitsToolbar query={query} onChange={changeQuery} onApplyView={applyView} /> : null}

      {list.isError ? (
        <Alert severity="error" variant="filled" sx={{ mb: 2 }}>
          {errorMessage(list.error)}
        </Alert>
      ) : null}

      {hasNothingYet && inScope?.getting_started ? (
        <GettingStarted steps={inScope.getting_started} />
      ) : (
        <Paper
          ref={results}
          variant="outlined"
          component="section"
          aria-label="Permits list"
          // Busy while the rows shown answer an earlier filter (they stay on screen until the next arrive).
          aria-busy={list.isFetching}
          data-stale={list.isPlaceholderData || undefined}
          sx={{ overflow: "hidden", scrollMarginTop: 72 }}
        >
          <Box sx={{ height: 4 }}>
            {list.isFetching ? <LinearProgress aria-label="Loading permits" /> : null}
          </Box>
          {list.isPending || (isListEmpty && !inScope) ? (
            <RowsSkeleton />
          ) : hasNothingYet ? (
            <ListEmptyState text={EMPTY_STATES.permits.none} />
          ) : rowsOnPage === 0 && !list.isError ? (
            <ListEmptyState
              text={EMPTY_STATES.permits.filtered}
              onClear={isFiltered(query) ? () => changeQuery(CLEARED_FILTERS) : undefined}
            >
              {isFiltered(query) ? null : (
                <Typography variant="body2" color="text.secondary">
                  Archived and N/A permits are not listed, nor, unless Show Non-Required is on, those not
                  Required.
                </Typography>
              )}
            </ListEmptyState>
          ) : isPhone ? (
            <Suspense fallback={<RowsSkeleton />}>
              <PermitCards {...viewProps} />
            </Suspense>
          ) : (
            <PermitsTable {...viewProps} />
          )}
        </Paper>
      )}

      {list.data && list.data.total > 0 ? (
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
          <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 2 }}>
            <Typography variant="body2" color="text.secondary">
              {formatCount(firstRow)}–{formatCount(firstRow + rowsOnPage - 1)} of{" "}
              {formatCount(list.data.total)}
            </Typography>
            <Legend />
          </Box>
          {pageCount > 1 ? (
            <Pagination
              count={pageCount}
              page={Math.min(query.page, pageCount)}
              onChange={(_e, page) => {
                setView({ ...view, query: { ...query, page } });
                window.scrollTo({ top: 0 });
              }}
              color="primary"
              shape="rounded"
              siblingCount={isPhone ? 0 : 1}
            />
          ) : null}
        </Box>
      ) : null}

      {showsControls && isPhone ? (
        <Box sx={{ mt: 2, display: "grid", gap: 2 }}>
          <PermitExports query={query} />
          {analytics}
        </Box>
      ) : null}

      {hasAsked ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open={!!doomed}
            title="Delete permit"
            message="Are you sure you want to delete this permit?"
            details={doomed ? `${doomed.permit_number} · ${doomed.permit_name}` : undefined}
            isBusy={remove.isPending}
            error={remove.isError ? `Delete failed: ${errorMessage(remove.error)}` : undefined}
            onClose={() => setDoomed(null)}
            onConfirm={() => {
              if (!doomed) return;
              remove.mutate(doomed.id, { onSuccess: () => setDoomed(null) });
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}

/** What the row colours mean, so colour is not the only cue. */
function Legend() {
  const swatch = (urgency: "expired" | "expiring") => (
    <Box component="span" sx={{ display: "inline-flex", alignItems: "center", gap: 0.75 }}>
      <Box
        component="span"
        sx={(t) => ({
          width: 14,
          height: 14,
          borderRadius: 0.5,
          border: 1,
          borderColor: "divider",
          bgcolor: urgencyBackground(t, urgency),
        })}
      />
      <Typography variant="body2" component="span" color="text.secondary">
        {URGENCY_LABELS[urgency]}
      </Typography>
    </Box>
  );
  return (
    <Box sx={{ display: "flex", gap: 2 }}>
      {swatch("expired")}
      {swatch("expiring")}
    </Box>
  );
}
