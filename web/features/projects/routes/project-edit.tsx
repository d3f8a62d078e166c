import { useParams } from "react-router";
import Alert from "@mui/material/Alert";
import { AccessDenied } from "../../../components/access-denied.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { errorMessage, isApiError } from "../../../lib/api.ts";
import { useCan } from "../../../lib/session.tsx";
import { useProject } from "../api/get-project.ts";
import { ProjectForm } from "../components/project-form.tsx";

/** /admin/projects/{id}/edit */
export default function ProjectEditPage() {
  const { id } = useParams();
  const canManage = useCan("projects.manage");
  const project = useProject(canManage ? id : undefined);
  if (!canManage) return <AccessDenied />;
  return (
    <>
      <PageHeader title="Edit Project" />
      {project.isPending ? (
        <PageSpinner label="Loading project..." />
      ) : project.isError ? (
        <Alert severity="error">
          {isApiError(project.error) && project.error.status === 404
            ? "Project not found."
            : errorMessage(project.error)}
        </Alert>
      ) : (
        <ProjectForm key={project.data.id} project={project.data} />
      )}
    </>
  );
}
