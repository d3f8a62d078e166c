import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { PageHeader } from "./page-header.tsx";

/**
 * Placeholder for a screen that a feature issue has not built yet. Feature engineers replace
 * the route file that renders it; nothing else refers to it.
 */
export function ComingSoon({ title, description }: { title: string; description?: string }) {
  return (
    <>
      <PageHeader title={title} />
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography>{title} — coming soon</Typography>
        {description ? (
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {description}
          </Typography>
        ) : null}
      </Paper>
    </>
  );
}
