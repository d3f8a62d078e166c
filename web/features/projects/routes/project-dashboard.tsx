import { Link as RouterLink, useParams } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Typography from "@mui/material/Typography";
import { PageHeader } from "../../../components/page-header.tsx";
import { LogEventButton, ProjectTasksCard } from "../../conditions/index.ts";
import { errorMessage, isApiError } from "../../../lib/api.ts";
import { paths } from "../../../lib/paths.ts";
import { useCan, useCurrentUser } from "../../../lib/session.tsx";
import { useProjectDashboard } from "../api/project-dashboard.ts";
import { AnalyticsCard } from "../components/analytics-card.tsx";
import { OpenRequestsCard } from "../components/open-requests-card.tsx";
import { PermitsSummary } from "../components/permits-summary.tsx";
import { ProjectInfoCard } from "../components/project-info-card.tsx";
import { ProjectPermitsTable } from "../components/project-permits-table.tsx";
import { ProjectPacketActions } from "../../packets/index.ts";

/** The project dashboard (/projects/{projectId}/dashboard), for everyone who can see the project. */
export default function ProjectDashboardPage() {
  const { projectId } = useParams();
  const dashboard = useProjectDashboard(projectId);
  // Issue 29: 'Log Event' for the roles that edit permits; due times in the company's zone.
  const canLogEvent = useCan("permits.edit");
  const timeZone = useCurrentUser().company?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;

  if (dashboard.isPending) {
    return (
      <Box sx={{ display: "flex", alignItems: "center", gap: 2, py: 6, justifyContent: "center" }}>
        <CircularProgress size={24} aria-hidden />
        <Typography>Loading project dashboard...</Typography>
      </Box>
    );
  }
  if (dashboard.isError) {
    const isMissing = isApiError(dashboard.error) && dashboard.error.status === 404;
    return (
      <Alert severity={isMissing ? "warning" : "error"} sx={{ mt: 2 }}>
        {isMissing ? "Project not found." : errorMessage(dashboard.error)}
      </Alert>
    );
  }

  const { project } = dashboard.data;
  return (
    <>
      <Button component={RouterLink} to={paths.permits} size="small" sx={{ mb: 1, ml: -1 }}>
        ← Back to Permits
      </Button>
      <PageHeader
        title={project.name || "Untitled Project"}
        actions={
          <>
            {canLogEvent ? <LogEventButton projectId={project.id} /> : null}
            {project.can.createPermit ? (
              <Button component={RouterLink} to={paths.newProjectPermit(project.id)} variant="contained">
                + New Permit
              </Button>
            ) : null}
          </>
        }
      />
      <Box sx={{ mb: 2 }}>
        <ProjectPacketActions projectId={project.id} name={project.name || "Untitled Project"} />
      </Box>
      <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", md: "3fr 2fr" }, mb: 3 }}>
        <AnalyticsCard dashboard={dashboard.data} />
        <ProjectInfoCard dashboard={dashboard.data} />
      </Box>
      <PermitsSummary dashboard={dashboard.data} />
      <ProjectTasksCard tasks={dashboard.data.tasks} timeZone={timeZone} />
      <OpenRequestsCard dashboard={dashboard.data} />
      <Typography variant="h3" component="h2" sx={{ mb: 1.5 }}>
        Permits
      </Typography>
      <ProjectPermitsTable permits={dashboard.data.permits} />
    </>
  );
}
