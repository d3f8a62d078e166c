import { Link as RouterLink } from "react-router";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { formatCount, formatDay, formatMomentIn } from "../../../lib/format.ts";
import { paths } from "../../../lib/paths.ts";
import type { ProjectDashboard } from "../../../../shared/schemas/projects.ts";

/** The dashboard's tasks: open, overdue and due counts, the open ones by due. */
export type ProjectTasks = ProjectDashboard["tasks"];

/**
 * 'Tasks' on the project dashboard (issue 29): how many of the project's tasks are open and
 * overdue, and the open ones (overdue first), each linked to its permit.
 */
export function ProjectTasksCard({ tasks, timeZone }: { tasks: ProjectTasks | undefined; timeZone: string }) {
  if (!tasks || (!tasks.open && !tasks.items.length)) return null;
  return (
    <Card variant="outlined" component="section" aria-labelledby="project-tasks-title" sx={{ mb: 3 }}>
      <CardContent>
        <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap", mb: 1.5 }}>
          <Typography id="project-tasks-title" variant="h3" component="h2" sx={{ flex: 1 }}>
            Tasks
          </Typography>
          <Chip size="small" label={`${formatCount(tasks.open)} open`} />
          {tasks.due ? (
            <Chip
              size="small"
              color="warning"
              variant="outlined"
              label={`Tasks Due: ${formatCount(tasks.due)}`}
            />
          ) : null}
          {tasks.overdue ? (
            <Chip size="small" color="error" label={`${formatCount(tasks.overdue)} overdue`} />
          ) : null}
        </Box>
        <Box component="ul" aria-label="Open tasks" sx={{ listStyle: "none", p: 0, m: 0 }}>
          {tasks.items.map((t) => (
            <Box
              component="li"
              key={t.id}
              sx={{
                display: "grid",
                gridTemplateColumns: { xs: "1fr", md: "2fr 2fr 1fr 1fr" },
                columnGap: 2,
                rowGap: 0.25,
                alignItems: "center",
                py: 1,
                borderTop: 1,
                borderColor: "divider",
                "&:first-of-type": { borderTop: 0, pt: 0 },
              }}
            >
              <Typography sx={{ fontWeight: 600, overflowWrap: "anywhere" }}>{t.title}</Typography>
              <Link
                component={RouterLink}
                to={paths.permit(t.permit_id)}
                underline="hover"
                sx={{ overflowWrap: "anywhere" }}
              >
                {t.permit_number} · {t.permit_name}
              </Link>
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: "anywhere" }}>
                {t.owner_name ?? "—"}
              </Typography>
              <Typography
                variant="body2"
                sx={t.overdue ? { color: "error.main", fontWeight: 650 } : undefined}
              >
                Due {t.timed ? formatMomentIn(t.due_at, timeZone) : formatDay(t.due_on)}
                {t.overdue ? " (overdue)" : ""}
              </Typography>
            </Box>
          ))}
        </Box>
      </CardContent>
    </Card>
  );
}
