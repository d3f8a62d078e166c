import type { ReactNode } from "react";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";

/** True on a phone-sized screen, where tables turn into cards (issue 14). */
export function useIsPhone(): boolean {
  const theme = useTheme();
  return useMediaQuery(theme.breakpoints.down("md"));
}

/**
 * A table's rows as cards on a phone: every field stays on screen (a table would hide its right-hand
 * columns behind a sideways scroll), each labelled, with the row's actions as 44 px targets.
 */
export function RecordCards({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box component="ul" aria-label={label} sx={{ listStyle: "none", p: 0, m: 0, display: "grid", gap: 1.25 }}>
      {children}
    </Box>
  );
}

export interface RecordField {
  label: string;
  value: ReactNode;
}

export function RecordCard({
  title,
  subtitle,
  fields,
  actions,
  isMuted = false,
  children,
}: {
  /** The record's name (often a link); the card's heading. */
  title: ReactNode;
  subtitle?: ReactNode;
  fields: RecordField[];
  /** Buttons and links of the row, shown along the card's foot. */
  actions?: ReactNode;
  /** Greyed (a disabled user, an N/A permit): secondary text, still 4.5:1. */
  isMuted?: boolean;
  children?: ReactNode;
}) {
  return (
    <Paper
      component="li"
      variant="outlined"
      sx={{
        p: 1.5,
        minWidth: 0,
        ...(isMuted ? { color: "text.secondary", bgcolor: "action.hover" } : {}),
      }}
    >
      <Typography component="h3" sx={{ fontWeight: 600, fontSize: "1rem", overflowWrap: "anywhere" }}>
        {title}
      </Typography>
      {subtitle ? (
        <Typography
          variant="body2"
          sx={{ color: isMuted ? "inherit" : "text.secondary", overflowWrap: "anywhere" }}
        >
          {subtitle}
        </Typography>
      ) : null}
      {fields.length ? (
        <Box
          component="dl"
          sx={{
            display: "grid",
            gridTemplateColumns: "minmax(96px, auto) 1fr",
            columnGap: 1.5,
            rowGap: 0.5,
            m: 0,
            mt: 1,
            fontSize: "0.875rem",
            alignItems: "center",
          }}
        >
          {fields.map((f) => (
            <Box key={f.label} sx={{ display: "contents" }}>
              <Box component="dt" sx={{ color: isMuted ? "inherit" : "text.secondary" }}>
                {f.label}
              </Box>
              <Box component="dd" sx={{ m: 0, minWidth: 0, overflowWrap: "anywhere" }}>
                {f.value}
              </Box>
            </Box>
          ))}
        </Box>
      ) : null}
      {children}
      {actions ? (
        <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1, mt: 1, justifyContent: "flex-end" }}>
          {actions}
        </Box>
      ) : null}
    </Paper>
  );
}
