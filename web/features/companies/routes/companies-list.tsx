import { useState } from "react";
import { Link as RouterLink } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import AddIcon from "@mui/icons-material/Add";
import type { Company } from "../../../../shared/schemas/companies.ts";
import { PageHeader } from "../../../components/page-header.tsx";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { RowActions } from "../../../components/row-actions.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { formatCount } from "../../../lib/format.ts";
import { paths } from "../../../lib/paths.ts";
import { websiteHref } from "../../../lib/urls.ts";
import { useCompanies } from "../api/get-companies.ts";
import { CompanyLogo } from "../components/company-logo.tsx";
import { DeleteCompanyDialog } from "../components/delete-company-dialog.tsx";
import { EMPTY_STATES } from "../../../../shared/domain/empty-states.ts";

// Columns that give way on a phone; the name, counts and actions stay.
const wide = { display: { xs: "none", md: "table-cell" } } as const;

/** Companies table (spec section 2): 'New Company'; edit and delete icons where the API allows them. */
export default function CompaniesListPage() {
  const companies = useCompanies();
  const [toDelete, setToDelete] = useState<Company | null>(null);

  return (
    <>
      <PageHeader
        title="Companies"
        actions={
          companies.data?.can.create ? (
            <Button component={RouterLink} to={paths.newCompany} variant="contained" startIcon={<AddIcon />}>
              New Company
            </Button>
          ) : null
        }
      />
      {companies.isPending ? (
        <PageSpinner label="Loading companies..." />
      ) : companies.isError ? (
        <Alert severity="error">{errorMessage(companies.error)}</Alert>
      ) : companies.data.companies.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 4, textAlign: "center" }}>
          <Typography color="text.secondary">{EMPTY_STATES.companies.none}</Typography>
        </Paper>
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table aria-label="Companies">
            <TableHead>
              <TableRow>
                <TableCell>Company</TableCell>
                <TableCell sx={wide}>Contact</TableCell>
                <TableCell sx={wide}>Phone</TableCell>
                <TableCell sx={wide}>Time Zone</TableCell>
                <TableCell align="right">Users</TableCell>
                <TableCell align="right" sx={wide}>
                  Permits
                </TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {companies.data.companies.map((company) => (
                <CompanyRow key={company.id} company={company} onDelete={() => setToDelete(company)} />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <DeleteCompanyDialog company={toDelete} onClose={() => setToDelete(null)} />
    </>
  );
}

function CompanyRow({ company, onDelete }: { company: Company; onDelete: () => void }) {
  const site = websiteHref(company.website);
  return (
    <TableRow hover>
      <TableCell>
        <Box sx={{ display: "flex", alignItems: "center", gap: 1.5 }}>
          <CompanyLogo name={company.name} url={company.logoUrl} size={32} />
          <Box sx={{ minWidth: 0 }}>
            <Typography sx={{ fontWeight: 600 }}>{company.name}</Typography>
            <Typography variant="body2" color="text.secondary">
              {company.slug}
              {site ? (
                <>
                  {" · "}
                  <Link href={site} target="_blank" rel="noopener noreferrer" underline="always">
                    {new URL(site).host}
                  </Link>
                </>
              ) : null}
            </Typography>
          </Box>
        </Box>
      </TableCell>
      <TableCell sx={wide}>
        <Typography variant="body2">{company.contactName ?? "—"}</Typography>
        {company.contactEmail ? (
          <Link variant="body2" href={`mailto:${company.contactEmail}`}>
            {company.contactEmail}
          </Link>
        ) : null}
      </TableCell>
      <TableCell sx={{ ...wide, whiteSpace: "nowrap" }}>{company.phone ?? "—"}</TableCell>
      <TableCell sx={wide}>{company.timeZone}</TableCell>
      <TableCell align="right">{company.counts.users}</TableCell>
      <TableCell align="right" sx={wide}>
        {formatCount(company.counts.permits)}
      </TableCell>
      <RowActions
        name={company.name}
        can={company.can}
        editTo={paths.editCompany(company.id)}
        onDelete={onDelete}
      />
    </TableRow>
  );
}
