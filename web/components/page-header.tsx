import type { ReactNode } from "react";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { usePageTitle } from "../lib/page-title.ts";

/** A page's <h1> (also the browser tab title) with optional actions on the right. */
export function PageHeader({ title, actions }: { title: string; actions?: ReactNode }) {
  usePageTitle(title);
  return (
    <Box
      sx={{
        display: "flex",
        flexWrap: "wrap",
        alignItems: "center",
        justifyContent: "space-between",
        gap: 2,
        mb: 3,
      }}
    >
      <Typography variant="h1">{title}</Typography>
      {actions ? <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1 }}>{actions}</Box> : null}
    </Box>
  );
}
