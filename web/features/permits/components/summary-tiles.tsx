import { useId, useState, type ReactNode } from "react";
import ExpandMore from "@mui/icons-material/ExpandMore";
import ButtonBase from "@mui/material/ButtonBase";
import Box from "@mui/material/Box";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { alpha } from "@mui/material/styles";
import { PERMIT_TILE_LABELS, type PermitTile } from "../../../../shared/domain/permit-list.ts";
import type { PermitSummary } from "../../../../shared/schemas/permits.ts";
import { useIsPhone } from "../../../components/record-cards.tsx";
import { formatCount } from "../../../lib/format.ts";
import { useCan } from "../../../lib/session.tsx";

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

/** A set of tiles under its caption: "By stage" (they add up to the total) or "Within the total". */
function TileSet({ caption, count, children }: { caption: string; count: number; children: ReactNode }) {
  return (
    <Box sx={{ flex: `${count} 1 ${count * 140}px`, minWidth: 0 }}>
      <Typography
        variant="caption"
        component="p"
        sx={{ color: "text.secondary", fontWeight: 600, mb: 0.5, letterSpacing: 0.3 }}
      >
        {caption}
      </Typography>
      <Box
        sx={{
          display: "grid",
          gridTemplateColumns: {
            xs: "repeat(2, minmax(0, 1fr))",
            sm: `repeat(${count}, minmax(0, 1fr))`,
          },
          gap: { xs: 1, sm: 1.5 },
        }}
      >
        {children}
      </Box>
    </Box>
  );
}

/**
 * How the total is made up, in words (issue 25: "Total 138 against 25 + 108 + 9"): the stage
 * tiles and In Progress add up to it; the others count permits already within it.
 */
export function totalSentence(summary: PermitSummary): string {
  const inProgress = summary.by_status.find((s) => s.category === "In Progress")?.count ?? 0;
  const rest = summary.total - inProgress - summary.in_review - summary.active;
  const parts = [
    `${formatCount(inProgress)} In Progress`,
    `${formatCount(summary.in_review)} In Review`,
    `${formatCount(summary.active)} Active`,
    ...(rest > 0 ? [`${formatCount(rest)} with no stage dates`] : []),
  ];
  return `${formatCount(summary.total)} permits = ${parts.join(" + ")}. The tiles within the total count permits already in it; one permit can be in several.`;
}

/**
 * The summary tiles of spec section 2, as the list's quick filters (issue 14): a click shows that
 * tile's permits and a second click (or Total Permits) shows them all again. Expiring Soon shows
 * only when something expires soon (spec), unless it is the chosen filter. Issue 25: the stage
 * tiles (Total Permits, In Review, Active) stand apart from those within the total (Closed,
 * Expiring Soon, Expired, Renewal Due), with a sentence saying how they add up; on a phone they
 * fold into one summary row that opens them, and a tile tapped there closes them again and
 * `onSelect` shows the results (the page scrolls to them).
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
  const isPhone = useIsPhone();
  // Issue 27: 'To Review' for the roles that review document requests (not a client-user).
  const canReview = useCan("permits.edit");
  const [isOpen, setIsOpen] = useState(false);
  const tilesId = useId();
  const choose = (tile: PermitTile | null) => {
    if (isPhone) setIsOpen(false);
    onSelect(tile);
  };
  const tile = (key: PermitTile, value: number | undefined, tone?: Tone) => (
    <Tile
      key={key}
      label={PERMIT_TILE_LABELS[key]}
      value={value}
      tone={tone}
      isSelected={selected === key}
      onClick={() => choose(selected === key ? null : key)}
    />
  );
  const showExpiring = (summary && summary.expiring_soon > 0) || selected === "expiring_soon";
  // Issue 29: 'Tasks Due' (permits with a condition's task due within 7 days or overdue).
  const within = 4 + (showExpiring ? 1 : 0) + (canReview ? 1 : 0);
  const tiles = (
    <Box id={tilesId} role="group" aria-label="Summary: choose a tile to filter the list" sx={{ mb: 2 }}>
      <Box sx={{ display: "flex", flexWrap: "wrap", gap: { xs: 1.5, md: 3 } }}>
        <TileSet caption="By stage" count={3}>
          <Tile
            label="Total Permits"
            value={summary?.total}
            isSelected={selected === null}
            onClick={() => choose(null)}
          />
          {tile("in_review", summary?.in_review)}
          {tile("active", summary?.active)}
        </TileSet>
        <TileSet caption="Within the total" count={within}>
          {tile("closed", summary?.closed)}
          {showExpiring ? tile("expiring_soon", summary?.expiring_soon, "warning") : null}
          {tile("expired", summary?.expired, "error")}
          {tile("renewal_due", summary?.renewal_due, "warning")}
          {canReview ? tile("review", summary?.review) : null}
          {tile("tasks", summary?.tasks, "warning")}
        </TileSet>
      </Box>
      <Typography variant="caption" component="p" sx={{ color: "text.secondary", mt: 0.75 }}>
        {summary ? totalSentence(summary) : "\u00a0"}
      </Typography>
    </Box>
  );
  if (!isPhone) return tiles;
  return (
    <>
      <PhoneSummaryRow
        summary={summary}
        selected={selected}
        isOpen={isOpen}
        controls={tilesId}
        onToggle={() => setIsOpen(!isOpen)}
      />
      {isOpen ? tiles : null}
    </>
  );
}

/**
 * The tiles folded into one row on a phone (issue 25: the list started 1,000 px below them): the
 * total and what needs attention, or the chosen tile; a tap opens the tiles.
 */
function PhoneSummaryRow({
  summary,
  selected,
  isOpen,
  controls,
  onToggle,
}: {
  summary: PermitSummary | undefined;
  selected: PermitTile | null;
  isOpen: boolean;
  controls: string;
  onToggle: () => void;
}) {
  const attention = summary
    ? [
        summary.expiring_soon ? `${formatCount(summary.expiring_soon)} Expiring Soon` : null,
        summary.expired ? `${formatCount(summary.expired)} Expired` : null,
        summary.renewal_due ? `${formatCount(summary.renewal_due)} Renewal Due` : null,
        summary.review ? `${formatCount(summary.review)} To Review` : null,
        summary.tasks ? `${formatCount(summary.tasks)} Tasks Due` : null,
      ].filter(Boolean)
    : [];
  const count = (n: number | undefined) => (n === undefined ? "…" : formatCount(n));
  return (
    <ButtonBase
      focusRipple
      aria-expanded={isOpen}
      aria-controls={isOpen ? controls : undefined}
      onClick={onToggle}
      sx={{
        display: "flex",
        width: "100%",
        justifyContent: "space-between",
        alignItems: "center",
        gap: 1,
        textAlign: "left",
        minHeight: 48,
        px: 1.5,
        py: 1,
        mb: 1.5,
        border: 1,
        borderColor: selected ? "primary.main" : "divider",
        borderRadius: 1,
        bgcolor: "background.paper",
      }}
    >
      <Box sx={{ minWidth: 0 }}>
        <Typography component="span" variant="body2" sx={{ display: "block", fontWeight: 600 }}>
          {selected
            ? `Showing ${PERMIT_TILE_LABELS[selected]}: ${count(summary?.[selected])} of ${count(summary?.total)}`
            : `${count(summary?.total)} permits`}
        </Typography>
        <Typography component="span" variant="caption" sx={{ display: "block", color: "text.secondary" }}>
          {selected
            ? "Tap to choose another tile"
            : !summary
              ? "\u00a0"
              : attention.length
                ? attention.join(" · ")
                : "Nothing expiring, expired or due for renewal"}
        </Typography>
      </Box>
      <ExpandMore
        aria-hidden
        sx={(t) => ({
          transform: isOpen ? "rotate(180deg)" : "none",
          transition: t.transitions.create("transform", { duration: 150 }),
        })}
      />
    </ButtonBase>
  );
}
