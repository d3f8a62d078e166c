import type { ReactNode } from "react";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { ProjectDashboard } from "../../../../shared/schemas/projects.ts";
import { formatDayOrDash, plural } from "../../../lib/format.ts";

function Tile({ label, value, tone }: { label: string; value: ReactNode; tone?: "error" | "warning" }) {
  return (
    <Paper
      variant="outlined"
      sx={{
        p: 1.5,
        minWidth: 0,
        borderColor: tone ? `${tone}.main` : undefined,
        bgcolor: tone
          ? (t) => (t.palette.mode === "dark" ? "transparent" : t.palette[tone].light + "1f")
          : undefined,
      }}
    >
      {/* Wraps rather than cutting "Expiring within 30 days" short in a narrow tile. */}
      <Typography variant="caption" color="text.secondary" component="p" sx={{ lineHeight: 1.35 }}>
        {label}
      </Typography>
      <Typography variant="h3" component="p" color={tone ? `${tone}.dark` : undefined}>
        {value}
      </Typography>
    </Paper>
  );
}

/** The permits summary: counts by category, what expires soon and when the next one does. */
export function PermitsSummary({ dashboard }: { dashboard: ProjectDashboard }) {
  const { summary, categories } = dashboard;
  const notes = [
    summary.not_applicable ? `${plural(summary.not_applicable, "N/A permit")} (in no category)` : null,
    summary.uncategorized
      ? `${plural(summary.uncategorized, "permit")} neither started, applied for nor issued (in no category)`
      : null,
    summary.archived ? `${plural(summary.archived, "archived permit")} not shown` : null,
  ].filter(Boolean);
  return (
    <Box component="section" aria-labelledby="permits-summary-title" sx={{ mb: 3 }}>
      <Typography id="permits-summary-title" variant="h3" component="h2" sx={{ mb: 1.5 }}>
        Permits Summary
      </Typography>
      <Box
        sx={{
          display: "grid",
          gap: 1.5,
          gridTemplateColumns: { xs: "repeat(2, 1fr)", sm: "repeat(4, 1fr)", lg: "repeat(7, 1fr)" },
        }}
      >
        <Tile label="Total Permits" value={summary.total} />
        {categories.map((c) => (
          <Tile key={c.category} label={c.category} value={c.count} />
        ))}
        <Tile
          label="Expiring within 30 days"
          value={summary.expiring_soon}
          tone={summary.expiring_soon ? "warning" : undefined}
        />
        <Tile label="Expired" value={summary.expired} tone={summary.expired ? "error" : undefined} />
        <Tile label="Next Expiration" value={formatDayOrDash(summary.next_expiration)} />
      </Box>
      {notes.length ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {notes.join(" · ")}
        </Typography>
      ) : null}
    </Box>
  );
}
