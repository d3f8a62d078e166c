import Alert from "@mui/material/Alert";
import { AccessDenied } from "../../../components/access-denied.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useCompanies } from "../api/get-companies.ts";
import { CompanyForm } from "../components/company-form.tsx";

/** admin/companies/new: the company form, for whoever the API lets create companies. */
export default function CompanyCreatePage() {
  // The list answers whether the user may create, and the time zone a new company starts with.
  const companies = useCompanies();
  return (
    <>
      <PageHeader title="New Company" />
      {companies.isPending ? (
        <PageSpinner label="Loading..." />
      ) : companies.isError ? (
        <Alert severity="error">{errorMessage(companies.error)}</Alert>
      ) : !companies.data.can.create ? (
        <AccessDenied />
      ) : (
        <CompanyForm defaultTimeZone={companies.data.defaultTimeZone} />
      )}
    </>
  );
}
