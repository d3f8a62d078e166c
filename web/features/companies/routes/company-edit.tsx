import { useParams } from "react-router";
import Alert from "@mui/material/Alert";
import { AccessDenied } from "../../../components/access-denied.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useCompany } from "../api/get-company.ts";
import { CompanyForm } from "../components/company-form.tsx";

/** admin/companies/{id}/edit: the company form filled with the company, if the API allows editing it. */
export default function CompanyEditPage() {
  const { id } = useParams();
  const company = useCompany(id);
  return (
    <>
      <PageHeader title={company.data ? `Edit ${company.data.name}` : "Edit Company"} />
      {company.isPending ? (
        <PageSpinner label="Loading company..." />
      ) : company.isError ? (
        <Alert severity="error">{errorMessage(company.error)}</Alert>
      ) : !company.data.can.edit ? (
        <AccessDenied />
      ) : (
        <CompanyForm key={company.data.id} company={company.data} defaultTimeZone={company.data.timeZone} />
      )}
    </>
  );
}
