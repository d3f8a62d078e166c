import { PageHeader } from "../../../components/page-header.tsx";
import { AccessDenied } from "../../../components/access-denied.tsx";
import { paths } from "../../../lib/paths.ts";
import { useCan } from "../../../lib/session.tsx";
import { PermitForm } from "../components/permit-form.tsx";

/** New permit (/permits/new). */
export default function PermitCreatePage() {
  const canCreate = useCan("permits.create");
  return (
    <>
      <PageHeader title="New Permit" />
      {canCreate ? (
        <PermitForm backTo={paths.permits} />
      ) : (
        <AccessDenied message="You do not have permission to create permits." />
      )}
    </>
  );
}
