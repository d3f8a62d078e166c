import { useState } from "react";
import { Link as RouterLink } from "react-router";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TableSortLabel from "@mui/material/TableSortLabel";
import TextField from "@mui/material/TextField";
import type { Project, ProjectSort } from "../../../../shared/schemas/projects.ts";
import { RecordCard, RecordCards, useIsPhone } from "../../../components/record-cards.tsx";
import { RowActions } from "../../../components/row-actions.tsx";
import { paths } from "../../../lib/paths.ts";
import { DeleteProjectDialog } from "./delete-project-dialog.tsx";
import { ProjectStatusSelect } from "./project-status-select.tsx";

/** The sortable columns, for the phone's Sort by (the table's headers on wider screens). */
const SORT_CHOICES: [ProjectSort, string][] = [
  ["project_number", "Project Number"],
  ["name", "Project Name"],
  ["status", "Status"],
];

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
  const isPhone = useIsPhone();
  const status = (project: Project) =>
    project.can.edit ? (
      <ProjectStatusSelect project={project} />
    ) : (
      <Chip size="small" label={project.status} />
    );
  const actions = (project: Project, isInline: boolean) => (
    <RowActions
      name={project.name}
      can={project.can}
      editTo={paths.editProject(project.id)}
      onDelete={() => setToDelete(project)}
      size={isInline ? undefined : "small"}
      isInline={isInline}
    />
  );
  const nameLink = (project: Project) => (
    <Link component={RouterLink} to={paths.projectDashboard(project.id)} sx={{ fontWeight: 500 }}>
      {project.name}
    </Link>
  );
  if (isPhone) {
    return (
      <>
        <TextField
          select
          size="small"
          label="Sort by"
          value={`${sort.sort}:${sort.dir}`}
          onChange={(e) => {
            const [column, dir] = e.target.value.split(":") as [ProjectSort, "asc" | "desc"];
            onSort({ sort: column, dir });
          }}
          sx={{ mb: 1.5, minWidth: 220 }}
        >
          {SORT_CHOICES.flatMap(([column, label]) =>
            (["asc", "desc"] as const).map((dir) => (
              <MenuItem key={`${column}:${dir}`} value={`${column}:${dir}`}>
                {label} {dir === "asc" ? "(ascending)" : "(descending)"}
              </MenuItem>
            )),
          )}
        </TextField>
        <RecordCards label="Projects">
          {projects.map((project) => (
            <RecordCard
              key={project.id}
              title={nameLink(project)}
              subtitle={project.project_number ?? undefined}
              fields={[
                { label: "Client", value: project.client_name ?? "—" },
                ...(showCompany ? [{ label: "Company", value: project.company_name }] : []),
                { label: "Status", value: status(project) },
                { label: "Permits", value: project.permit_count },
              ]}
              actions={actions(project, true)}
            />
          ))}
        </RecordCards>
        <DeleteProjectDialog project={toDelete} onClose={() => setToDelete(null)} />
      </>
    );
  }
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
                <TableCell>{nameLink(project)}</TableCell>
                <TableCell>{project.client_name ?? "—"}</TableCell>
                {showCompany ? <TableCell>{project.company_name}</TableCell> : null}
                <TableCell>{status(project)}</TableCell>
                <TableCell align="right">{project.permit_count}</TableCell>
                {actions(project, false)}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <DeleteProjectDialog project={toDelete} onClose={() => setToDelete(null)} />
    </>
  );
}
