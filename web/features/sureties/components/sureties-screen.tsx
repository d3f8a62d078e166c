import { useNavigate, useParams } from "react-router";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import AddIcon from "@mui/icons-material/Add";
import { AccessDenied } from "../../../components/access-denied.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { paths } from "../../../lib/paths.ts";
import { useCan } from "../../../lib/session.tsx";
import { useCompanies } from "../../companies/index.ts";
import { useSureties } from "../api/list-sureties.ts";
import { SuretiesTable } from "./sureties-table.tsx";
import { SuretyDrawer } from "./surety-drawer.tsx";
import { useCompanyCurrency } from "./surety-currency.ts";
import { EMPTY_STATES } from "../../../../shared/domain/empty-states.ts";

/**
 * Surety Admin (/admin/sureties, issue 12): the company's surety companies and their bonding
 * capacity, for company-admins and super-admins. The drawer follows the URL like the Clients
 * screen's: /admin/sureties/new and /admin/sureties/{id}/edit open it over the list.
 */
export function SuretiesScreen({ drawer }: { drawer?: "create" | "edit" }) {
  const canManage = useCan("sureties.manage");
  const showCompany = useCan("allCompanies");
  const { id } = useParams();
  const navigate = useNavigate();
  const sureties = useSureties(null, { enabled: canManage });
  const companies = useCompanies({ enabled: canManage && showCompany });
  const currencyOf = useCompanyCurrency(canManage);
  if (!canManage) return <AccessDenied />;

  const companyName = (companyId: string) =>
    companies.data?.companies.find((c) => c.id === companyId)?.name ?? "Unknown";
  const closeDrawer = () => void navigate(paths.sureties);
  const list = sureties.data?.sureties ?? [];
  return (
    <>
      <PageHeader
        title="Surety Admin"
        actions={
          sureties.data?.can.create !== false ? (
            <Button
              variant="contained"
              startIcon={<AddIcon />}
              onClick={() => void navigate(paths.newSurety)}
            >
              Add Surety
            </Button>
          ) : null
        }
      />
      {sureties.isPending ? (
        <PageSpinner label="Loading sureties..." />
      ) : sureties.isError ? (
        <Typography color="error" role="alert">
          {errorMessage(sureties.error)}
        </Typography>
      ) : list.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 3, textAlign: "center" }}>
          <Typography color="text.secondary">{EMPTY_STATES.sureties.none}</Typography>
        </Paper>
      ) : (
        <SuretiesTable
          sureties={list}
          showCompany={showCompany}
          companyName={companyName}
          currencyOf={currencyOf}
        />
      )}
      {drawer ? (
        <SuretyDrawer
          mode={drawer}
          surety={drawer === "edit" ? list.find((s) => s.id === id) : undefined}
          isLoading={sureties.isPending}
          closeTo={paths.sureties}
          onClose={closeDrawer}
        />
      ) : null}
    </>
  );
}
