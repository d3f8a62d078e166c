import { useState } from "react";
import { Link as RouterLink } from "react-router";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TableSortLabel from "@mui/material/TableSortLabel";
import Tooltip from "@mui/material/Tooltip";
import DeleteIcon from "@mui/icons-material/DeleteOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import type { Project, ProjectSort } from "../../../../shared/schemas/projects.ts";
import { paths } from "../../../lib/paths.ts";
import { DeleteProjectDialog } from "./delete-project-dialog.tsx";
import { ProjectStatusSelect } from "./project-status-select.tsx";

export interface SortState {
  sort: ProjectSort;
  dir: "asc" | "desc";
}

function SortableHeader({
  column,
  label,
  state,
  onSort,
}: {
  column: ProjectSort;
  label: string;
  state: SortState;
  onSort: (next: SortState) => void;
}) {
  const isActive = state.sort === column;
  return (
    <TableCell sortDirection={isActive ? state.dir : false}>
      <TableSortLabel
        active={isActive}
        direction={isActive ? state.dir : "asc"}
        onClick={() => onSort({ sort: column, dir: isActive && state.dir === "asc" ? "desc" : "asc" })}
      >
        {label}
      </TableSortLabel>
    </TableCell>
  );
}

/** The Projects Admin table: sortable by the server, status saved in place, permit counts. */
export function ProjectsTable({
  projects,
  sort,
  onSort,
  showCompany,
}: {
  projects: Project[];
  sort: SortState;
  onSort: (next: SortState) => void;
  showCompany: boolean;
}) {
  const [toDelete, setToDelete] = useState<Project | null>(null);
  return (
    <>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Projects">
          <TableHead>
            <TableRow>
              <SortableHeader column="project_number" label="Project Number" state={sort} onSort={onSort} />
              <SortableHeader column="name" label="Project Name" state={sort} onSort={onSort} />
              <TableCell>Client</TableCell>
              {showCompany ? <TableCell>Company</TableCell> : null}
              <SortableHeader column="status" label="Status" state={sort} onSort={onSort} />
              <TableCell align="right">Permits</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {projects.map((project) => (
              <TableRow key={project.id} hover>
                <TableCell sx={{ whiteSpace: "nowrap" }}>{project.project_number ?? "—"}</TableCell>
                <TableCell>
                  <Link
                    component={RouterLink}
                    to={paths.projectDashboard(project.id)}
                    sx={{ fontWeight: 500 }}
                  >
                    {project.name}
                  </Link>
                </TableCell>
                <TableCell>{project.client_name ?? "—"}</TableCell>
                {showCompany ? <TableCell>{project.company_name}</TableCell> : null}
                <TableCell>
                  {project.can.edit ? (
                    <ProjectStatusSelect project={project} />
                  ) : (
                    <Chip size="small" label={project.status} />
                  )}
                </TableCell>
                <TableCell align="right">{project.permit_count}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  {project.can.edit ? (
                    <Tooltip title="Edit">
                      <IconButton
                        component={RouterLink}
                        to={paths.editProject(project.id)}
                        aria-label={`Edit ${project.name}`}
                        size="small"
                      >
                        <EditIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  ) : null}
                  {project.can.delete ? (
                    <Tooltip title="Delete">
                      <IconButton
                        onClick={() => setToDelete(project)}
                        aria-label={`Delete ${project.name}`}
                        size="small"
                      >
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <DeleteProjectDialog project={toDelete} onClose={() => setToDelete(null)} />
    </>
  );
}
