import type { ReactNode } from "react";
import Box from "@mui/material/Box";

/** A card and its place: `key` names it, so a card that appears above it (the lifecycle's, once loaded)
 * does not make React mount it again (and lose what was typed in it). */
export type Placed = { key: string; node: ReactNode; order: number };

/**
 * Two columns from md up (details left, files and reminders right) and the audit trail across
 * both. Below md the column wrappers dissolve (display: contents) and `order` puts attachments
 * right after the facts, so a phone user does not scroll past every comment to reach the files.
 */
export function DetailLayout({ main, side, bottom }: { main: Placed[]; side: Placed[]; bottom: Placed }) {
  const placed = (item: Placed) => (
    <Box key={item.key} sx={{ order: { xs: item.order, md: 0 }, minWidth: 0 }}>
      {item.node}
    </Box>
  );
  const column = { display: { xs: "contents", md: "grid" }, gap: 3, minWidth: 0 } as const;
  return (
    <Box
      sx={{
        display: { xs: "flex", md: "grid" },
        flexDirection: "column",
        gridTemplateColumns: { md: "minmax(0, 2fr) minmax(300px, 1fr)" },
        gap: { xs: 2, sm: 3 },
        alignItems: { md: "start" },
      }}
    >
      <Box sx={column}>{main.map(placed)}</Box>
      <Box sx={column}>{side.map(placed)}</Box>
      <Box sx={{ gridColumn: { md: "1 / -1" }, order: { xs: bottom.order, md: 0 }, minWidth: 0 }}>
        {bottom.node}
      </Box>
    </Box>
  );
}
