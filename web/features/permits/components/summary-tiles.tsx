import ButtonBase from "@mui/material/ButtonBase";
import Box from "@mui/material/Box";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { alpha } from "@mui/material/styles";
import { PERMIT_TILE_LABELS, type PermitTile } from "../../../../shared/domain/permit-list.ts";
import type { PermitSummary } from "../../../../shared/schemas/permits.ts";
import { formatCount } from "../../../lib/format.ts";

type Tone = "warning" | "error";

function Tile({
  label,
  value,
  tone,
  isSelected,
  onClick,
}: {
  label: string;
  value: number | undefined;
  tone?: Tone;
  isSelected: boolean;
  onClick: () => void;
}) {
  return (
    <ButtonBase
      focusRipple
      aria-pressed={isSelected}
      onClick={onClick}
      sx={(t) => {
        const accent = tone ? t.palette[tone].main : t.palette.primary.main;
        return {
          display: "block",
          textAlign: "left",
          width: "100%",
          minWidth: 0,
          px: 2,
          py: 1.5,
          borderRadius: 1,
          border: 1,
          borderColor: isSelected ? accent : tone ? alpha(accent, 0.6) : "divider",
          // A chosen tile reads as chosen without colour too: a doubled edge and a bolder label.
          boxShadow: isSelected ? `inset 0 0 0 1px ${accent}` : undefined,
          bgcolor: isSelected
            ? alpha(accent, t.palette.mode === "dark" ? 0.24 : 0.1)
            : tone
              ? alpha(accent, t.palette.mode === "dark" ? 0.12 : 0.05)
              : "background.paper",
          transition: t.transitions.create(["background-color", "border-color"], { duration: 120 }),
          "&:hover": { bgcolor: alpha(accent, t.palette.mode === "dark" ? 0.2 : 0.08) },
        };
      }}
    >
      <Typography
        component="span"
        variant="body2"
        sx={{ display: "block", color: "text.secondary", fontWeight: isSelected ? 600 : 400 }}
      >
        {label}
      </Typography>
      <Typography component="span" variant="h4" sx={{ display: "block", fontWeight: 600, lineHeight: 1.3 }}>
        {value === undefined ? <Skeleton width={48} /> : formatCount(value)}
      </Typography>
    </ButtonBase>
  );
}

/**
 * The summary tiles of spec section 2, as the list's quick filters (issue 14): a click shows that
 * tile's permits and a second click (or Total Permits) shows them all again. Expiring Soon shows
 * only when something expires soon (spec), unless it is the chosen filter.
 */
export function SummaryTiles({
  summary,
  selected,
  onSelect,
}: {
  summary: PermitSummary | undefined;
  selected: PermitTile | null;
  onSelect: (tile: PermitTile | null) => void;
}) {
  const tile = (key: PermitTile, value: number | undefined, tone?: Tone) => (
    <Tile
      key={key}
      label={PERMIT_TILE_LABELS[key]}
      value={value}
      tone={tone}
      isSelected={selected === key}
      onClick={() => onSelect(selected === key ? null : key)}
    />
  );
  const showExpiring = (summary && summary.expiring_soon > 0) || selected === "expiring_soon";
  return (
    <Box
      role="group"
      aria-label="Summary: choose a tile to filter the list"
      sx={{
        display: "grid",
        gridTemplateColumns: {
          xs: "repeat(2, minmax(0, 1fr))",
          sm: "repeat(3, minmax(0, 1fr))",
          // Six or seven tiles (Expiring Soon shows only when above 0) fill the row either way.
          md: "repeat(auto-fit, minmax(130px, 1fr))",
        },
        gap: { xs: 1, sm: 1.5 },
        mb: 2,
      }}
    >
      <Tile
        label="Total Permits"
        value={summary?.total}
        isSelected={selected === null}
        onClick={() => onSelect(null)}
      />
      {tile("in_review", summary?.in_review)}
      {tile("active", summary?.active)}
      {tile("closed", summary?.closed)}
      {showExpiring ? tile("expiring_soon", summary?.expiring_soon, "warning") : null}
      {tile("expired", summary?.expired, "error")}
      {tile("renewal_due", summary?.renewal_due, "warning")}
    </Box>
  );
}
