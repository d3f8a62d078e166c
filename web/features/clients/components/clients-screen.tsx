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
import { useClients } from "../api/list-clients.ts";
import { ClientDrawer } from "./client-drawer.tsx";
import { ClientsTable } from "./clients-table.tsx";
import { EMPTY_STATES } from "../../../../shared/domain/empty-states.ts";

/**
 * The Clients screen (spec section 2). The drawer follows the URL: /admin/clients/new and
 * /admin/clients/{id}/edit open it over the list, closing it goes back to /admin/clients.
 */
export function ClientsScreen({ drawer }: { drawer?: "create" | "edit" }) {
  const canManage = useCan("clients.manage");
  const { id } = useParams();
  const navigate = useNavigate();
  const clients = useClients();
  if (!canManage) return <AccessDenied />;

  const closeDrawer = () => void navigate(paths.clients);
  return (
    <>
      <PageHeader
        title="Clients"
        actions={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => void navigate(paths.newClient)}>
            New Client
          </Button>
        }
      />
      {clients.isPending ? (
        <PageSpinner label="Loading clients..." />
      ) : clients.isError ? (
        <Typography color="error" role="alert">
          {errorMessage(clients.error)}
        </Typography>
      ) : clients.data.clients.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 3, textAlign: "center" }}>
          <Typography color="text.secondary">{EMPTY_STATES.clients.none}</Typography>
        </Paper>
      ) : (
        <ClientsTable clients={clients.data.clients} />
      )}
      {drawer ? (
        <ClientDrawer mode={drawer} clientId={id} closeTo={paths.clients} onClose={closeDrawer} />
      ) : null}
    </>
  );
}
