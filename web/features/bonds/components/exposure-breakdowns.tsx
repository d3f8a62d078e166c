import { lazy, Suspense, useState, type ReactNode } from "react";
import ExpandMore from "@mui/icons-material/ExpandMore";
import Button from "@mui/material/Button";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { SURETY_WARNING_PERCENT } from "../../../../shared/domain/bonds.ts";
import type { BondList, BySurety, ExposureRow } from "../../../../shared/schemas/bonds.ts";
import { useIsPhone } from "../../../components/record-cards.tsx";
import { formatAmount, formatCount, formatPercent, plural } from "../../../lib/format.ts";
import { suretyKey, suretyLabel } from "./surety-label.ts";

// recharts is most of this page's weight: its own chunk, as on the All Permits page.
const ExposureChart = lazy(() => import("./exposure-chart.tsx"));

const isHigh = (percent: number | null) => percent !== null && percent > SURETY_WARNING_PERCENT;

/** "82.5 % of aggregate limit" with a bar; the warning colour (and words) over 80 %. */
function LimitShare({ row }: { row: BySurety }) {
  if (row.percent_of_aggregate === null)
    return (
      <Typography variant="body2" component="span" sx={{ color: "text.secondary" }}>
        {row.aggregate_limit === null ? "No limit" : "—"}
      </Typography>
    );
  const high = isHigh(row.percent_of_aggregate);
  return (
    <Box sx={{ minWidth: 120 }}>
      <Typography
        variant="body2"
        component="span"
        sx={{ display: "block", fontWeight: high ? 700 : 500, color: high ? "warning.main" : "text.primary" }}
      >
        {formatPercent(row.percent_of_aggregate / 100)}
        {high ? ` · over ${formatPercent(SURETY_WARNING_PERCENT / 100)}` : ""}
      </Typography>
      {/* A plain bar: the figure above says it in words (a progressbar would read as loading). */}
      <Box
        aria-hidden
        sx={{ height: 6, borderRadius: 3, mt: 0.5, bgcolor: "action.selected", overflow: "hidden" }}
      >
        <Box
          sx={{
            width: `${Math.min(100, row.percent_of_aggregate)}%`,
            height: "100%",
            borderRadius: 3,
            bgcolor: high ? "warning.main" : "primary.main",
          }}
        />
      </Box>
    </Box>
  );
}

/** A breakdown row's name: a link-styled button that filters the list by it. */
function FilterName({ name, label, onClick }: { name: string; label: string; onClick?: () => void }) {
  if (!onClick) return <>{name}</>;
  return (
    <Link
      component="button"
      type="button"
      onClick={onClick}
      aria-label={label}
      sx={{
        fontWeight: 600,
        textAlign: "left",
        font: "inherit",
        overflowWrap: "anywhere",
        display: { xs: "inline-flex", md: "inline" },
        alignItems: "center",
        minHeight: { xs: 44, md: "auto" },
      }}
    >
      {name}
    </Link>
  );
}

function Section({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={id}
      sx={{ p: { xs: 1.5, sm: 2 }, minWidth: 0 }}
    >
      <Typography id={id} variant="h2" sx={{ fontSize: "1.1rem", mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

const Empty = () => (
  <Typography variant="body2" sx={{ color: "text.secondary", py: 2 }}>
    No open bonds in this view.
  </Typography>
);

/** The by-surety breakdown: a table on a laptop, stacked rows on a phone. */
function SuretyRows({
  rows,
  showLimits,
  onSurety,
}: {
  rows: BySurety[];
  showLimits: boolean;
  onSurety: (id: string | "none") => void;
}) {
  const isPhone = useIsPhone();
  const nameOf = (r: BySurety) => (
    <FilterName
      name={suretyLabel(r)}
      label={`Show the bonds of ${suretyLabel(r)}`}
      onClick={() => onSurety(r.surety_id ?? "none")}
    />
  );
  if (isPhone)
    return (
      <Box
        component="ul"
        aria-label="Exposure by surety"
        sx={{ listStyle: "none", m: 0, p: 0, display: "grid", gap: 1 }}
      >
        {rows.map((r) => (
          <Box component="li" key={suretyKey(r)} sx={{ borderTop: 1, borderColor: "divider", pt: 1 }}>
            <Box sx={{ display: "flex", justifyContent: "space-between", alignItems: "center", gap: 1 }}>
              <Box sx={{ minWidth: 0 }}>{nameOf(r)}</Box>
              <Typography variant="body2" sx={{ fontWeight: 600, whiteSpace: "nowrap" }}>
                {formatAmount(r.amount, r.currency)}
              </Typography>
            </Box>
            <Typography variant="caption" sx={{ color: "text.secondary", display: "block" }}>
              {plural(r.count, "open bond")}
            </Typography>
            {showLimits ? <LimitShare row={r} /> : null}
          </Box>
        ))}
      </Box>
    );
  return (
    <Table size="small" aria-label="Exposure by surety">
      <TableHead>
        <TableRow>
          <TableCell>Surety</TableCell>
          <TableCell align="right">Open Exposure</TableCell>
          <TableCell align="right">Bonds</TableCell>
          {showLimits ? <TableCell>% of Aggregate Limit</TableCell> : null}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((r) => (
          <TableRow key={suretyKey(r)} data-high={isHigh(r.percent_of_aggregate) || undefined}>
            <TableCell>{nameOf(r)}</TableCell>
            <TableCell align="right" sx={{ whiteSpace: "nowrap", fontWeight: 600 }}>
              {formatAmount(r.amount, r.currency)}
            </TableCell>
            <TableCell align="right">{formatCount(r.count)}</TableCell>
            {showLimits ? (
              <TableCell>
                <LimitShare row={r} />
              </TableCell>
            ) : null}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** By client or by project: the ten largest, name, open exposure and bonds. */
function ExposureRows({
  label,
  rows,
  onPick,
}: {
  label: string;
  rows: ExposureRow[];
  onPick: (id: string) => void;
}) {
  return (
    <Box component="ul" aria-label={label} sx={{ listStyle: "none", m: 0, p: 0 }}>
      {rows.map((r) => (
        <Box
          component="li"
          key={`${r.id ?? "none"}:${r.currency}`}
          sx={{
            display: "flex",
            alignItems: "center",
            justifyContent: "space-between",
            gap: 1.5,
            py: 0.75,
            borderTop: 1,
            borderColor: "divider",
          }}
        >
          <Box sx={{ minWidth: 0 }}>
            <FilterName
              name={r.name}
              label={`Show the bonds of ${r.name}`}
              onClick={r.id ? () => onPick(r.id!) : undefined}
            />
            <Typography variant="caption" sx={{ display: "block", color: "text.secondary" }}>
              {plural(r.count, "open bond")}
            </Typography>
          </Box>
          <Typography variant="body2" sx={{ fontWeight: 600, whiteSpace: "nowrap" }}>
            {formatAmount(r.amount, r.currency)}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/**
 * Exposure by surety (amount, open bonds, share of the aggregate limit with the warning colour
 * over 80 %, and a bar chart), by client and by project (issue 12). A name filters the list below.
 * The limits column shows only to those the API gives limits (never a client-user).
 */
export function ExposureBreakdowns(props: BreakdownsProps) {
  const isPhone = useIsPhone();
  const [isOpen, setIsOpen] = useState(false);
  if (!isPhone) return <Breakdowns {...props} />;
  // On a phone the bonds come first (issue 25: the list was 2,100 px down): the breakdowns open on a tap.
  return (
    <Box sx={{ mb: 2 }}>
      <Button
        variant="outlined"
        fullWidth
        aria-expanded={isOpen}
        aria-controls={isOpen ? "bond-exposure" : undefined}
        onClick={() => setIsOpen(!isOpen)}
        endIcon={<ExpandMore sx={{ transform: isOpen ? "rotate(180deg)" : "none" }} />}
        sx={{ justifyContent: "space-between", minHeight: 48 }}
      >
        {/* The breakdowns: by surety, client and project. */}
        {isOpen ? "Hide Exposure Breakdowns" : "Show Exposure Breakdowns"}
      </Button>
      {isOpen ? (
        <Box id="bond-exposure" sx={{ mt: 1.5 }}>
          <Breakdowns {...props} />
        </Box>
      ) : null}
    </Box>
  );
}

interface BreakdownsProps {
  data: BondList | undefined;
  showLimits: boolean;
  onFilter: (patch: { surety_id?: string; client_id?: string; project_id?: string }) => void;
}

function Breakdowns({ data, showLimits, onFilter }: BreakdownsProps) {
  const currency = data?.currency ?? null;
  const limits = showLimits || !!data?.by_surety.some((r) => r.aggregate_limit !== null);
  const pending = <Skeleton variant="rounded" height={120} />;
  return (
    <Box sx={{ display: "grid", gap: 2, mb: 2 }}>
      <Section title="Exposure by Surety" id="exposure-surety-heading">
        {!data ? (
          pending
        ) : data.by_surety.length === 0 ? (
          <Empty />
        ) : (
          <Box
            sx={{
              display: "grid",
              gap: 2,
              gridTemplateColumns: { xs: "minmax(0, 1fr)", lg: "minmax(0, 1.1fr) minmax(0, 1fr)" },
              alignItems: "start",
            }}
          >
            <SuretyRows
              rows={data.by_surety}
              showLimits={limits}
              onSurety={(id) => onFilter({ surety_id: id })}
            />
            {/* One axis holds one currency: no chart across several (the table says it per row). */}
            {currency ? (
              <Suspense fallback={<Skeleton variant="rounded" height={220} />}>
                <ExposureChart rows={data.by_surety} currency={currency} />
              </Suspense>
            ) : null}
          </Box>
        )}
      </Section>
      <Box
        sx={{
          display: "grid",
          gap: 2,
          gridTemplateColumns: { xs: "minmax(0, 1fr)", md: "repeat(2, minmax(0, 1fr))" },
        }}
      >
        <Section title="Exposure by Client" id="exposure-client-heading">
          {!data ? (
            pending
          ) : data.by_client.length === 0 ? (
            <Empty />
          ) : (
            <ExposureRows
              label="Exposure by client"
              rows={data.by_client}
              onPick={(id) => onFilter({ client_id: id })}
            />
          )}
        </Section>
        <Section title="Exposure by Project" id="exposure-project-heading">
          {!data ? (
            pending
          ) : data.by_project.length === 0 ? (
            <Empty />
          ) : (
            <ExposureRows
              label="Exposure by project"
              rows={data.by_project}
              onPick={(id) => onFilter({ project_id: id })}
            />
          )}
        </Section>
      </Box>
    </Box>
  );
}
