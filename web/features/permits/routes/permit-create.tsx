import { Link as RouterLink } from "react-router";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import { GETTING_STARTED } from "../../../../shared/domain/empty-states.ts";
import { AccessDenied } from "../../../components/access-denied.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { paths } from "../../../lib/paths.ts";
import { useCan } from "../../../lib/session.tsx";
import { useScopeContents } from "../api/get-scope-contents.ts";
import { PermitForm } from "../components/permit-form.tsx";

/**
 * New permit (/permits/new). Before any company exists (a new install: issue 25) a permit has
 * nowhere to go: the page leads to creating a company instead of a form with an empty Company list.
 */
export default function PermitCreatePage() {
  const canCreate = useCan("permits.create");
  // Only a super-admin can be without a company (everyone else belongs to one).
  const mayLackCompany = useCan("allCompanies");
  const scope = useScopeContents(mayLackCompany);
  const hasNoCompany = scope.data?.getting_started?.company === false;
  return (
    <>
      <PageHeader title="New Permit" />
      {!canCreate ? (
        <AccessDenied />
      ) : mayLackCompany && scope.isPending ? (
        <PageSpinner />
      ) : hasNoCompany ? (
        <Alert
          severity="info"
          action={
            <Button component={RouterLink} to={paths.newCompany} variant="contained" size="small">
              New Company
            </Button>
          }
        >
          {GETTING_STARTED.noCompany}
        </Alert>
      ) : (
        <PermitForm backTo={paths.permits} />
      )}
    </>
  );
}
