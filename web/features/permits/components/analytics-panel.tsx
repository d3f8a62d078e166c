import { lazy, Suspense } from "react";
import Box from "@mui/material/Box";
import Collapse from "@mui/material/Collapse";
import Skeleton from "@mui/material/Skeleton";
import type { PermitSummary } from "../../../../shared/schemas/permits.ts";

// recharts is most of the list's weight: a chunk of its own, fetched with the panel.
const PermitCharts = lazy(() => import("./permit-charts.tsx"));

/**
 * The list's Analytics Dashboard charts, sliding open under their heading (permits-list.tsx loads
 * this once they are first shown; `slideIn` when that is a click, not the page's start).
 */
export default function AnalyticsPanel({
  open,
  slideIn,
  summary,
}: {
  open: boolean;
  slideIn: boolean;
  summary: PermitSummary | undefined;
}) {
  return (
    <Collapse in={open} appear={slideIn} unmountOnExit id="analytics-charts">
      <Box sx={{ px: 2, pb: 2 }}>
        {summary ? (
          <Suspense fallback={<Skeleton variant="rounded" height={300} />}>
            <PermitCharts summary={summary} />
          </Suspense>
        ) : (
          <Skeleton variant="rounded" height={300} />
        )}
      </Box>
    </Collapse>
  );
}
