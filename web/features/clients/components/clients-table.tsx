import { useState } from "react";
import { Link as RouterLink } from "react-router";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import DeleteIcon from "@mui/icons-material/DeleteOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import type { Client } from "../../../../shared/schemas/clients.ts";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { paths } from "../../../lib/paths.ts";
import { useDeleteClient } from "../api/delete-client.ts";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Clients table: Client Name, Company (or 'Unknown'), Created At (local date), and actions. */
export function ClientsTable({ clients }: { clients: Client[] }) {
  const [toDelete, setToDelete] = useState<Client | null>(null);
  const remove = useDeleteClient();
  const close = () => {
    setToDelete(null);
    remove.reset();
  };
  return (
    <>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Clients">
          <TableHead>
            <TableRow>
              <TableCell>Client Name</TableCell>
              <TableCell>Company</TableCell>
              <TableCell>Created At</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {clients.map((client) => (
              <TableRow key={client.id} hover>
                <TableCell sx={{ fontWeight: 500 }}>{client.name}</TableCell>
                <TableCell>{client.companyName ?? "Unknown"}</TableCell>
                <TableCell>{new Date(client.createdAt).toLocaleDateString()}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  {client.can.edit ? (
                    <Tooltip title="Edit">
                      <IconButton
                        component={RouterLink}
                        to={paths.editClient(client.id)}
                        aria-label={`Edit ${client.name}`}
                        size="small"
                      >
                        <EditIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  ) : null}
                  {client.can.delete ? (
                    <Tooltip title="Delete">
                      <IconButton
                        onClick={() => setToDelete(client)}
                        aria-label={`Delete ${client.name}`}
                        size="small"
                      >
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
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
