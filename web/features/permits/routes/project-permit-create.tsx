import { useParams } from "react-router";
import { AccessDenied } from "../../../components/access-denied.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { paths } from "../../../lib/paths.ts";
import { useCan } from "../../../lib/session.tsx";
import { PermitForm } from "../components/permit-form.tsx";

/** New permit within a project (/projects/{projectId}/permits/new): the project is preselected. */
export default function ProjectPermitCreatePage() {
  const { projectId = "" } = useParams();
  const canCreate = useCan("permits.create");
  return (
    <>
      <PageHeader title="New Permit" />
      {canCreate ? (
        <PermitForm projectId={projectId} backTo={paths.projectDashboard(projectId)} />
      ) : (
        <AccessDenied />
      )}
    </>
  );
}
