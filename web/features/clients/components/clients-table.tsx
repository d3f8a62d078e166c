import { useState } from "react";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import type { Client } from "../../../../shared/schemas/clients.ts";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { RecordCard, RecordCards, useIsPhone } from "../../../components/record-cards.tsx";
import { RowActions } from "../../../components/row-actions.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { formatDayOf, plural } from "../../../lib/format.ts";
import { paths } from "../../../lib/paths.ts";
import { useDeleteClient } from "../api/delete-client.ts";
import { ClientPacketActions } from "../../packets/index.ts";

/** Clients table: Client Name, Company (or 'Unknown'), Created At (local date), and actions. */
export function ClientsTable({ clients }: { clients: Client[] }) {
  const [toDelete, setToDelete] = useState<Client | null>(null);
  const remove = useDeleteClient();
  const isPhone = useIsPhone();
  const close = () => {
    setToDelete(null);
    remove.reset();
  };
  const actions = (client: Client, isInline: boolean) => (
    <RowActions
      name={client.name}
      can={client.can}
      editTo={paths.editClient(client.id)}
      onDelete={() => setToDelete(client)}
      size={isInline ? undefined : "small"}
      isInline={isInline}
    />
  );
  return (
    <>
      {isPhone ? (
        <RecordCards label="Clients">
          {clients.map((client) => (
            <RecordCard
              key={client.id}
              title={client.name}
              fields={[
                { label: "Company", value: client.companyName ?? "Unknown" },
                { label: "Created At", value: formatDayOf(client.createdAt) },
                {
                  label: "Compliance",
                  value: <ClientPacketActions clientId={client.id} name={client.name} />,
                },
              ]}
              actions={actions(client, true)}
            />
          ))}
        </RecordCards>
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label="Clients">
            <TableHead>
              <TableRow>
                <TableCell>Client Name</TableCell>
                <TableCell>Company</TableCell>
                <TableCell>Created At</TableCell>
                <TableCell>Compliance</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {clients.map((client) => (
                <TableRow key={client.id} hover>
                  <TableCell sx={{ fontWeight: 500 }}>{client.name}</TableCell>
                  <TableCell>{client.companyName ?? "Unknown"}</TableCell>
                  <TableCell>{formatDayOf(client.createdAt)}</TableCell>
                  <TableCell>
                    <ClientPacketActions clientId={client.id} name={client.name} />
                  </TableCell>
                  {actions(client, false)}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <ConfirmDialog
        open={!!toDelete}
        title="Delete client"
        message={`Delete the client "${toDelete?.name ?? ""}"?`}
        details={
          toDelete?.projectCount
            ? `It has ${plural(toDelete.projectCount, "project")}, so it cannot be deleted: move the projects to another client or delete them first.`
            : undefined
        }
        confirmDisabled={!!toDelete?.projectCount}
        isBusy={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : undefined}
        onClose={close}
        onConfirm={() => toDelete && remove.mutate(toDelete.id, { onSuccess: close })}
      />
    </>
  );
}
