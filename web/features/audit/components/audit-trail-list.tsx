import Box from "@mui/material/Box";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import Alert from "@mui/material/Alert";
import { errorMessage } from "../../../lib/api.ts";
import { formatMoment } from "../../../lib/format.ts";
import { usePermitAudit, type AuditRow } from "../api/get-permit-audit.ts";

/** "Update: Responsible Person — Sam Baker → Dana Whitfield", in the entry's words (issue 25). */
function describe(entry: AuditRow): { title: string; change: string | null } {
  const { action, field, oldValue, newValue } = entry.text;
  const title = field ? `${action}: ${field}` : action;
  if (entry.action !== "update") {
    // create, delete, upload...: the value it concerns, if any.
    const values = [oldValue, newValue].filter((v) => v !== null);
    return { title, change: values.length ? values.join(" → ") : null };
  }
  return { title, change: `${oldValue ?? "(empty)"} → ${newValue ?? "(empty)"}` };
}

/** The form's Audit Trail (edit only): who changed what, newest first. */
export function AuditTrailList({ permitId }: { permitId: string }) {
  const audit = usePermitAudit(permitId);
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="audit-trail-heading"
      sx={{ p: { xs: 2, sm: 3 } }}
    >
      <Typography id="audit-trail-heading" variant="h2" sx={{ fontSize: "1.15rem", mb: 1 }}>
        Audit Trail
      </Typography>
      {audit.isPending ? (
        <Skeleton height={64} />
      ) : audit.isError ? (
        <Alert severity="error">{errorMessage(audit.error)}</Alert>
      ) : audit.data.length === 0 ? (
        <Typography color="text.secondary">No audit entries found.</Typography>
      ) : (
        // A long trail scrolls: focusable, so a keyboard can scroll it too (WCAG 2.1.1).
        <Box
          tabIndex={0}
          role="region"
          aria-label="Audit Trail entries"
          sx={{ maxHeight: 360, overflowY: "auto" }}
        >
          <List dense aria-label="Audit Trail">
            {audit.data.map((entry) => {
              const { title, change } = describe(entry);
              const who = entry.impersonatorName
                ? `${entry.userName} (by ${entry.impersonatorName})`
                : entry.userName;
              return (
                <ListItem key={entry.id} divider disableGutters>
                  <ListItemText
                    primary={change ? `${title} — ${change}` : title}
                    secondary={[who, formatMoment(entry.timestamp), entry.source].filter(Boolean).join(" · ")}
                    slotProps={{ primary: { sx: { overflowWrap: "anywhere" } } }}
                  />
                </ListItem>
              );
            })}
          </List>
        </Box>
      )}
    </Paper>
  );
}
