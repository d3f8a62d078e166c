import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import type { PermitSummary } from "../../../../shared/schemas/permits.ts";

const NUMBER = new Intl.NumberFormat("en-US");

function Tile({ label, value, tone }: { label: string; value: number | undefined; tone?: "warning" }) {
  return (
    <Paper
      variant="outlined"
      role="group"
      aria-label={label}
      sx={{
        px: 2,
        py: 1.5,
        minWidth: 0,
        borderColor: tone ? "warning.main" : undefined,
        bgcolor: tone ? (t) => (t.palette.mode === "dark" ? "rgba(255,167,38,0.12)" : "#fff8e1") : undefined,
      }}
    >
      <Typography variant="body2" color="text.secondary" noWrap>
        {label}
      </Typography>
      <Typography variant="h4" component="p" sx={{ fontWeight: 600, lineHeight: 1.3 }}>
        {value === undefined ? <Skeleton width={48} /> : NUMBER.format(value)}
      </Typography>
    </Paper>
  );
}

/** The summary tiles of spec section 2; Expiring Soon only when there is something expiring. */
export function SummaryTiles({ summary }: { summary: PermitSummary | undefined }) {
  return (
    <Box
      sx={{
        display: "grid",
        gridTemplateColumns: {
          xs: "repeat(2, minmax(0, 1fr))",
          sm: "repeat(3, minmax(0, 1fr))",
          md: "repeat(5, minmax(0, 1fr))",
        },
        gap: { xs: 1, sm: 1.5 },
        mb: 2,
      }}
    >
      <Tile label="Total Permits" value={summary?.total} />
      <Tile label="In Review" value={summary?.in_review} />
      <Tile label="Active" value={summary?.active} />
      <Tile label="Closed" value={summary?.closed} />
      {summary && summary.expiring_soon > 0 ? (
        <Tile label="Expiring Soon" value={summary.expiring_soon} tone="warning" />
      ) : null}
    </Box>
  );
}
