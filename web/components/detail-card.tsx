import { useId, type ReactNode } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import type { SxProps, Theme } from "@mui/material/styles";
import { errorMessage } from "../lib/api.ts";

/**
 * One card of the permit detail page, whichever feature draws it: a labelled region (so assistive
 * technology and the end-to-end tests can find it by its heading), an icon, a title and optional
 * header actions.
 */
export function DetailCard({
  title,
  icon,
  action,
  children,
  sx,
}: {
  title: string;
  icon?: ReactNode;
  action?: ReactNode;
  children: ReactNode;
  sx?: SxProps<Theme>;
}) {
  const headingId = useId();
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={headingId}
      sx={[{ p: { xs: 2, sm: 2.5 }, borderRadius: 3, minWidth: 0 }, ...(Array.isArray(sx) ? sx : [sx])]}
    >
      <Box sx={{ display: "flex", alignItems: "center", gap: 1.25, mb: 2, minHeight: 36 }}>
        {icon ? (
          <Box
            aria-hidden
            sx={{
              display: "grid",
              placeItems: "center",
              width: 32,
              height: 32,
              borderRadius: 2,
              color: "primary.main",
              bgcolor: (t) => (t.palette.mode === "dark" ? "rgba(0,168,132,0.16)" : "rgba(0,168,132,0.10)"),
              "& svg": { fontSize: 20 },
            }}
          >
            {icon}
          </Box>
        ) : null}
        <Typography id={headingId} variant="h2" sx={{ fontSize: "1.05rem", fontWeight: 650, flex: 1 }}>
          {title}
        </Typography>
        {action}
      </Box>
      {children}
    </Paper>
  );
}

/** Label above value, in a responsive grid; empty values show a dash. */
export function FieldGrid({ items }: { items: { label: string; value: ReactNode; wide?: boolean }[] }) {
  return (
    <Box
      component="dl"
      sx={{ m: 0, display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(150px, 1fr))", gap: 2 }}
    >
      {items.map((item) => (
        <Box key={item.label} sx={{ minWidth: 0, gridColumn: item.wide ? "1 / -1" : undefined }}>
          <Typography
            component="dt"
            variant="caption"
            sx={{ color: "text.secondary", display: "block", mb: 0.25 }}
          >
            {item.label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: 500, overflowWrap: "anywhere" }}>
            {item.value === null || item.value === undefined || item.value === "" ? "—" : item.value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/** The muted one-line text of an empty list (the spec's exact empty-state messages). */
export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <Typography
      variant="body2"
      sx={{
        color: "text.secondary",
        py: 2.5,
        textAlign: "center",
        border: 1,
        borderStyle: "dashed",
        borderColor: "divider",
        borderRadius: 2,
      }}
    >
      {children}
    </Typography>
  );
}

/** A card whose data is on its way (a skeleton), or its error in its place. */
export function PendingCard({ title, icon, error }: { title: string; icon: ReactNode; error: unknown }) {
  return (
    <DetailCard title={title} icon={icon}>
      {error ? (
        <Alert severity="error">{errorMessage(error)}</Alert>
      ) : (
        <Skeleton variant="rounded" height={96} />
      )}
    </DetailCard>
  );
}

/** The muted line under a row's name that says more (a term's fee and note, a ledger entry's reason). */
export function RowDetails({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <Typography
      component="span"
      variant="caption"
      sx={{ display: "block", color: "text.secondary", overflowWrap: "anywhere" }}
    >
      {children}
    </Typography>
  );
}
