import { useState } from "react";
import { useSearchParams } from "react-router";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import LinearProgress from "@mui/material/LinearProgress";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import AddIcon from "@mui/icons-material/Add";
import { PROJECT_SORTS, type ProjectSort } from "../../../../shared/schemas/projects.ts";
import { AccessDenied } from "../../../components/access-denied.tsx";
import { ListEmptyState } from "../../../components/getting-started.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useCan } from "../../../lib/session.tsx";
import { CompanySelect } from "../../companies/index.ts";
import { useProjects } from "../api/list-projects.ts";
import { CreateProjectDialog } from "../components/create-project-dialog.tsx";
import { ProjectsTable, type SortState } from "../components/projects-table.tsx";
import { EMPTY_STATES } from "../../../../shared/domain/empty-states.ts";

const isSort = (v: string | null): v is ProjectSort => (PROJECT_SORTS as readonly string[]).includes(v ?? "");

/** Projects Admin (/admin/projects): the sortable table and the 'Create New Project' dialog. */
export default function ProjectsAdminPage() {
  const canManage = useCan("projects.manage");
  const seesCompanies = useCan("allCompanies");
  // Sort and company live in the URL, so a reload or a shared link shows the same list.
  const [search, setSearch] = useSearchParams();
  const sortParam = search.get("sort");
  const sort: SortState = {
    sort: isSort(sortParam) ? sortParam : "name",
    dir: search.get("dir") === "desc" ? "desc" : "asc",
  };
  const companyId = seesCompanies ? (search.get("company") ?? "") : "";
  const [isCreating, setIsCreating] = useState(false);
  const projects = useProjects({ ...sort, companyId });
  if (!canManage) return <AccessDenied />;

  const setParams = (next: Partial<SortState & { company: string }>) =>
    setSearch(
      (prev) => {
        const params = new URLSearchParams(prev);
        for (const [key, value] of Object.entries(next)) {
          if (value) params.set(key, value);
          else params.delete(key);
        }
        return params;
      },
      { replace: true },
    );

  return (
    <>
      <PageHeader
        title="Projects"
        actions={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setIsCreating(true)}>
            Create New Project
          </Button>
        }
      />
      {seesCompanies ? (
        <Box sx={{ mb: 2, maxWidth: 360 }}>
          <CompanySelect
            label="Company"
            value={companyId}
            onChange={(company) => setParams({ company })}
            allLabel="All companies"
            size="small"
            fullWidth
          />
        </Box>
      ) : null}
      {projects.isPending ? (
        <PageSpinner label="Loading projects..." />
      ) : projects.isError ? (
        <Typography color="error" role="alert">
          {errorMessage(projects.error)}
        </Typography>
      ) : projects.data.projects.length === 0 ? (
        <Paper variant="outlined">
          {/* A chosen company without projects: "nothing matches" (issue 25). */}
          {companyId ? (
            <ListEmptyState
              text={EMPTY_STATES.projects.filtered}
              onClear={() => setParams({ company: "" })}
            />
          ) : (
            <ListEmptyState text={EMPTY_STATES.projects.none} />
          )}
        </Paper>
      ) : (
        <Box sx={{ position: "relative" }}>
          {projects.isPlaceholderData ? (
            <LinearProgress
              aria-label="Sorting projects"
              sx={{ position: "absolute", top: 0, left: 0, right: 0, zIndex: 1 }}
            />
          ) : null}
          <ProjectsTable
            projects={projects.data.projects}
            sort={sort}
            onSort={(next) => setParams(next)}
            showCompany={seesCompanies}
          />
        </Box>
      )}
      {isCreating ? (
        <CreateProjectDialog defaultCompanyId={companyId} onClose={() => setIsCreating(false)} />
      ) : null}
    </>
  );
}
