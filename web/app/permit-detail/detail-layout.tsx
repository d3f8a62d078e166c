import type { ReactNode } from "react";
import Box from "@mui/material/Box";

/** A card and its place: `key` names it, so a card that appears above it (the lifecycle's, once loaded)
 * does not make React mount it again (and lose what was typed in it). */
export type Placed = { key: string; node: ReactNode; order: number };

/**
 * Two columns from md up (details left; the actions card, files and reminders right) and the audit
 * trail across both. The actions card (Renew, Extend, ...) comes first in the page's order, so the
 * keyboard reaches it right after the heading and a phone shows it first (issue 25: it was 1,250 px
 * down a phone's page and 16 Tab stops away); from md up it heads the right-hand column. Below md the
 * column wrappers dissolve (display: contents) and `order` places the other cards, attachments right
 * after the facts, so a phone user does not scroll past every comment to reach the files.
 */
export function DetailLayout({
  actions,
  main,
  side,
  bottom,
}: {
  actions: Placed;
  main: Placed[];
  side: Placed[];
  bottom: Placed;
}) {
  const placed = (item: Placed) => (
    <Box key={item.key} sx={{ order: { xs: item.order, md: 0 }, minWidth: 0 }}>
      {item.node}
    </Box>
  );
  const column = {
    display: { xs: "contents", md: "grid" },
    gap: 3,
    minWidth: 0,
    alignContent: "start",
  } as const;
  return (
    <Box
      sx={{
        display: { xs: "flex", md: "grid" },
        flexDirection: "column",
        gridTemplateColumns: { md: "minmax(0, 2fr) minmax(300px, 1fr)" },
        // The actions card sizes the first row; the main column spans both rows and the second
        // (flexible) row takes what it needs beyond, so the side column follows the actions card
        // without a gap.
        gridTemplateRows: { md: "auto 1fr" },
        gridTemplateAreas: { md: '"main actions" "main side" "bottom bottom"' },
        gap: { xs: 2, sm: 3 },
        alignItems: { md: "start" },
      }}
    >
      <Box key={actions.key} sx={{ gridArea: { md: "actions" }, order: { xs: 0, md: 0 }, minWidth: 0 }}>
        {actions.node}
      </Box>
      <Box sx={{ ...column, gridArea: { md: "main" } }}>{main.map(placed)}</Box>
      <Box sx={{ ...column, gridArea: { md: "side" } }}>{side.map(placed)}</Box>
      <Box sx={{ gridArea: { md: "bottom" }, order: { xs: bottom.order, md: 0 }, minWidth: 0 }}>
        {bottom.node}
      </Box>
    </Box>
  );
}
