import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import Typography from "@mui/material/Typography";
import type { ImportResult } from "../../../../shared/schemas/imports.ts";
import { pluralLocale } from "../../../lib/format.ts";

/** Issue 29: what the optional conditions file did (null without one). */
type ConditionsReport = {
  file_name: string;
  total_rows: number;
  added: { row: number; permit_number: string; title: string }[];
  rejected: { row: number; reason: string }[];
} | null;

/** What an import did, or what a dry run says it would do. */
export function ImportReport({ result }: { result: ImportResult }) {
  const { inserted, skipped, rejected, projects_created: projects, clients_created: clients } = result;
  const would = result.dry_run;
  const conditions = (result as { conditions?: ConditionsReport }).conditions ?? null;
  return (
    <Box sx={{ display: "grid", gap: 2 }}>
      <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1 }} aria-label="Import summary">
        <Chip
          color="success"
          label={`${would ? "Will import" : "Imported"} ${pluralLocale(inserted.length, "permit")}`}
        />
        <Chip
          color={skipped.length ? "warning" : "default"}
          label={`${pluralLocale(skipped.length, "duplicate")} skipped`}
        />
        <Chip
          color={rejected.length ? "error" : "default"}
          label={`${pluralLocale(rejected.length, "row")} rejected`}
        />
        {projects.length > 0 && (
          <Chip variant="outlined" label={`${pluralLocale(projects.length, "new project")}`} />
        )}
        {clients.length > 0 && (
          <Chip variant="outlined" label={`${pluralLocale(clients.length, "new client")}`} />
        )}
        {conditions ? (
          <Chip
            color={conditions.rejected.length ? "warning" : "success"}
            variant="outlined"
            label={`${would ? "Will add" : "Added"} ${pluralLocale(conditions.added.length, "condition")}${
              conditions.rejected.length
                ? `, ${pluralLocale(conditions.rejected.length, "condition row")} rejected`
                : ""
            }`}
          />
        ) : null}
      </Box>
      {conditions && conditions.rejected.length > 0 ? (
        <Alert severity="error" variant="outlined">
          <Typography variant="subtitle2" component="h3">
            Rejected rows of {conditions.file_name}
          </Typography>
          <List dense disablePadding sx={{ maxHeight: 240, overflow: "auto" }}>
            {conditions.rejected.map((r) => (
              <ListItem key={r.row} disableGutters>
                <ListItemText primary={r.reason} />
              </ListItem>
            ))}
          </List>
        </Alert>
      ) : null}
      {rejected.length > 0 && (
        <Alert severity="error" variant="outlined">
          <Typography variant="subtitle2" component="h3">
            Rejected rows {would ? "(they will not be imported)" : ""}
          </Typography>
          <List dense disablePadding sx={{ maxHeight: 240, overflow: "auto" }}>
            {rejected.map((r) => (
              <ListItem key={r.row} disableGutters>
                <ListItemText primary={r.reason} />
              </ListItem>
            ))}
          </List>
        </Alert>
      )}
      {skipped.length > 0 && (
        <Alert severity="warning" variant="outlined">
          <Typography variant="subtitle2" component="h3">
            Duplicates skipped
          </Typography>
          <List dense disablePadding sx={{ maxHeight: 240, overflow: "auto" }}>
            {skipped.map((s) => (
              <ListItem key={s.row} disableGutters>
                <ListItemText primary={`Row ${s.row}: ${s.permit_number} in ${s.project}: ${s.reason}`} />
              </ListItem>
            ))}
          </List>
        </Alert>
      )}
      {(projects.length > 0 || clients.length > 0) && (
        <Typography variant="body2" color="text.secondary">
          {projects.length > 0 && <>New projects: {projects.join(", ")}. </>}
          {clients.length > 0 && <>New clients: {clients.join(", ")}.</>}
        </Typography>
      )}
    </Box>
  );
}
