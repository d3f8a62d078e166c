import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { alpha } from "@mui/material/styles";
import type { BondList, BondSummary } from "../../../../shared/schemas/bonds.ts";
import { formatAmount, formatCount } from "../../../lib/format.ts";

function Tile({
  label,
  value,
  hint,
  tone,
  wide,
}: {
  label: string;
  value: string | undefined;
  hint?: string;
  tone?: "warning";
  /** A whole row on a phone: an amount in the millions does not fit half of one. */
  wide?: boolean;
}) {
  return (
    <Paper
      variant="outlined"
      sx={(t) => ({
        px: 2,
        py: 1.5,
        minWidth: 0,
        ...(wide ? { gridColumn: { xs: "1 / -1", md: "auto" } } : {}),
        ...(tone
          ? {
              borderColor: alpha(t.palette[tone].main, 0.6),
              bgcolor: alpha(t.palette[tone].main, t.palette.mode === "dark" ? 0.12 : 0.05),
            }
          : {}),
      })}
    >
      <Typography component="h2" variant="body2" sx={{ color: "text.secondary", fontSize: "0.875rem" }}>
        {label}
      </Typography>
      <Typography
        component="p"
        variant="h4"
        sx={{
          fontWeight: 600,
          lineHeight: 1.3,
          fontSize: { xs: "1.35rem", sm: "1.6rem" },
          overflowWrap: "anywhere",
          // One line per currency when the view spans several.
          whiteSpace: "pre-line",
        }}
      >
        {value === undefined ? <Skeleton width={96} /> : value}
      </Typography>
      {hint ? (
        <Typography variant="caption" sx={{ color: "text.secondary", display: "block", lineHeight: 1.4 }}>
          {hint}
        </Typography>
      ) : null}
    </Paper>
  );
}

/**
 * The Bonds page's tiles over the whole filtered view (issue 12): 'Open Exposure' (current amounts
 * of Active and Reduced bonds), 'Bonds', 'Expiring Soon', and 'Collateral Held', which a
 * client-user never gets (the API sends null, and the tile is left out).
 */
export function BondTiles({
  summary,
  currency,
  byCurrency,
}: {
  summary: BondSummary | undefined;
  currency: string | null;
  /** With `currency` null (a view across currencies): each currency's amounts (issue 25). */
  byCurrency: BondList["totals_by_currency"];
}) {
  const showCollateral = summary === undefined || summary.collateral_held !== null;
  // An amount is never shown without its currency (issue 25): across currencies, one line each.
  const amount = (total: string | null, per: (c: BondList["totals_by_currency"][number]) => string | null) =>
    currency === null && byCurrency.length
      ? byCurrency.map((c) => formatAmount(per(c), c.currency) ?? "—").join("\n")
      : (formatAmount(total, currency) ?? "—");
  return (
    <Box
      component="section"
      aria-label="Summary"
      sx={{
        display: "grid",
        gridTemplateColumns: {
          xs: "repeat(2, minmax(0, 1fr))",
          md: `repeat(${showCollateral ? 4 : 3}, minmax(0, 1fr))`,
        },
        gap: { xs: 1, sm: 1.5 },
        mb: 2,
      }}
    >
      <Tile
        wide
        label="Open Exposure"
        value={summary ? amount(summary.open_exposure, (c) => c.open_exposure) : undefined}
        hint="Active and Reduced bonds"
      />
      <Tile label="Bonds" value={summary ? formatCount(summary.bonds) : undefined} />
      <Tile
        label="Expiring Soon"
        value={summary ? formatCount(summary.expiring_soon) : undefined}
        hint="Open bonds, within 30 days"
        tone={summary && summary.expiring_soon > 0 ? "warning" : undefined}
      />
      {showCollateral ? (
        <Tile
          wide
          label="Collateral Held"
          value={summary ? amount(summary.collateral_held, (c) => c.collateral_held) : undefined}
        />
      ) : null}
    </Box>
  );
}
