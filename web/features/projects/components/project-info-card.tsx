import type { ReactNode } from "react";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Typography from "@mui/material/Typography";
import type { ProjectDashboard } from "../../../../shared/schemas/projects.ts";
import { formatDayOrDash } from "../../../lib/format.ts";
import { ProjectStatusSelect } from "./project-status-select.tsx";

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="dt">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, fontWeight: 500 }}>
        {children}
      </Typography>
    </Box>
  );
}

/** 'Project Information': the status (saved at once, for managers) and the start date rule. */
export function ProjectInfoCard({ dashboard }: { dashboard: ProjectDashboard }) {
  const { project } = dashboard;
  return (
    <Card variant="outlined" sx={{ height: "100%" }}>
      <CardContent sx={{ display: "flex", flexDirection: "column", gap: 2.5 }}>
        <Typography variant="h3" component="h2">
          Project Information
        </Typography>
        {project.can.edit ? (
          <ProjectStatusSelect project={project} label="Status" fullWidth />
        ) : (
          <Box component="dl" sx={{ m: 0 }}>
            <Fact label="Status">{project.status}</Fact>
          </Box>
        )}
        <Box component="dl" sx={{ m: 0, display: "grid", gridTemplateColumns: "1fr 1fr", gap: 2 }}>
          <Fact label="Start Date">{formatDayOrDash(dashboard.start_date)}</Fact>
          <Fact label="Project Number">{project.project_number ?? "—"}</Fact>
          <Fact label="Client">{project.client_name ?? "—"}</Fact>
          <Fact label="Company">{project.company_name}</Fact>
        </Box>
      </CardContent>
    </Card>
  );
}
