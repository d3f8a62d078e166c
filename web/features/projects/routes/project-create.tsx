import { AccessDenied } from "../../../components/access-denied.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { useCan } from "../../../lib/session.tsx";
import { ProjectForm } from "../components/project-form.tsx";

/** /admin/projects/new */
export default function ProjectCreatePage() {
  const canManage = useCan("projects.manage");
  if (!canManage) return <AccessDenied />;
  return (
    <>
      <PageHeader title="Add New Project" />
      <ProjectForm />
    </>
  );
}
