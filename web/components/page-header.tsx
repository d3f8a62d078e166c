import type { ReactNode } from "react";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import type { SxProps, Theme } from "@mui/material/styles";
import { useFocusOnArrival } from "../lib/focus-on-navigation.ts";
import { usePageTitle } from "../lib/page-title.ts";

/**
 * A screen's <h1>: focusable from script (tabIndex -1, no Tab stop) and focused when the screen
 * was just moved to, so the next Tab goes on from the top of the screen (issue 25).
 */
export function PageHeading({ children, sx }: { children: ReactNode; sx?: SxProps<Theme> }) {
  const ref = useFocusOnArrival<HTMLHeadingElement>();
  return (
    <Typography
      ref={ref}
      variant="h1"
      tabIndex={-1}
      sx={[{ "&:focus": { outline: "none" } }, ...(Array.isArray(sx) ? sx : [sx])]}
    >
      {children}
    </Typography>
  );
}

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
      <PageHeading>{title}</PageHeading>
      {actions ? <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1 }}>{actions}</Box> : null}
    </Box>
  );
}
