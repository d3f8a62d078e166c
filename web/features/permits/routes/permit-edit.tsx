import { useParams } from "react-router";
import Alert from "@mui/material/Alert";
import { AccessDenied } from "../../../components/access-denied.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { paths } from "../../../lib/paths.ts";
import { usePermit } from "../api/get-permit.ts";
import { PermitForm } from "../components/permit-form.tsx";

/** Edit permit (/permits/{id}/edit), with the permit's audit trail below the form. */
export default function PermitEditPage() {
  const { id = "" } = useParams();
  const permit = usePermit(id);
  return (
    <>
      <PageHeader title="Edit Permit" />
      {permit.isPending ? (
        <PageSpinner label="Loading the permit" />
      ) : permit.isError ? (
        <Alert severity="error">{errorMessage(permit.error)}</Alert>
      ) : !permit.data.can.edit ? (
        <AccessDenied />
      ) : (
        // Keyed by the permit, so the form starts from this permit's values.
        <PermitForm key={permit.data.id} permit={permit.data} backTo={paths.permit(permit.data.id)} />
      )}
    </>
  );
}
