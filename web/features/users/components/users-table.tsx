import { useState } from "react";
import { Link as RouterLink } from "react-router";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import DeleteIcon from "@mui/icons-material/DeleteOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import ClientsIcon from "@mui/icons-material/FilterAltOutlined";
import { ROLE_LABELS } from "../../../../shared/domain/roles.ts";
import type { User } from "../../../../shared/schemas/users.ts";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { paths } from "../../../lib/paths.ts";
import { useDeleteUser } from "../api/delete-user.ts";
import { EditClientsDialog } from "./edit-clients-dialog.tsx";

// Columns that fold into the name cell on a phone.
const wide = { display: { xs: "none", md: "table-cell" } } as const;
const narrowOnly = { display: { xs: "block", md: "none" } } as const;
const wideOnly = { display: { xs: "none", md: "inline-flex" } } as const;

const fullName = (u: User) => `${u.firstName} ${u.lastName}`.trim() || u.email;

/**
 * Users table (spec section 2): Edit, 'Edit Clients' for client-users, Delete ('Delete this
 * user?'). Disabled users are greyed and have no Delete. Every action shown is one the API allows.
 */
export function UsersTable({ users, showCompany }: { users: User[]; showCompany: boolean }) {
  const [toDelete, setToDelete] = useState<User | null>(null);
  const [clientsOf, setClientsOf] = useState<User | null>(null);
  const remove = useDeleteUser();
  const closeDelete = () => {
    setToDelete(null);
    remove.reset();
  };

  return (
    <>
      <TableContainer component={Paper} variant="outlined">
        <Table aria-label="Users" sx={{ "& td, & th": { px: { xs: 1, sm: 2 } } }}>
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell sx={wide}>Email</TableCell>
              <TableCell sx={wide}>Role</TableCell>
              {showCompany ? <TableCell sx={wide}>Company</TableCell> : null}
              <TableCell sx={wide}>Clients</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {users.map((user) => (
              <TableRow
                key={user.id}
                hover
                sx={
                  user.disabled
                    ? { bgcolor: "action.hover", "& > td": { color: "text.disabled" } }
                    : undefined
                }
              >
                <TableCell>
                  <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
                    <Typography sx={{ fontWeight: 600, color: "inherit" }}>{fullName(user)}</Typography>
                    {user.disabled ? <Chip label="Disabled" size="small" variant="outlined" /> : null}
                  </Box>
                  {user.title ? (
                    <Typography variant="body2" sx={{ color: user.disabled ? "inherit" : "text.secondary" }}>
                      {user.title}
                    </Typography>
                  ) : null}
                  <Typography
                    variant="body2"
                    sx={{ ...narrowOnly, color: "inherit", overflowWrap: "anywhere" }}
                  >
                    {user.email}
                  </Typography>
                  <Typography
                    variant="body2"
                    sx={{ ...narrowOnly, color: user.disabled ? "inherit" : "text.secondary" }}
                  >
                    {ROLE_LABELS[user.role]}
                    {showCompany && user.companyName ? ` · ${user.companyName}` : ""}
                  </Typography>
                </TableCell>
                <TableCell sx={wide}>{user.email}</TableCell>
                <TableCell sx={wide}>{ROLE_LABELS[user.role]}</TableCell>
                {showCompany ? <TableCell sx={wide}>{user.companyName ?? "No Company"}</TableCell> : null}
                <TableCell sx={wide}>
                  {user.role === "client-user" ? (
                    user.clients.length ? (
                      user.clients.map((c) => c.name).join(", ")
                    ) : (
                      <Typography variant="body2" color="warning.main">
                        None (sees no permits)
                      </Typography>
                    )
                  ) : (
                    "All"
                  )}
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  {user.can.editClients ? (
                    <>
                      <Button
                        size="small"
                        onClick={() => setClientsOf(user)}
                        aria-label={`Edit Clients of ${fullName(user)}`}
                        sx={wideOnly}
                      >
                        Edit Clients
                      </Button>
                      <Tooltip title="Edit Clients">
                        <IconButton
                          onClick={() => setClientsOf(user)}
                          aria-label={`Edit Clients of ${fullName(user)}`}
                          sx={{ display: { md: "none" } }}
                        >
                          <ClientsIcon />
                        </IconButton>
                      </Tooltip>
                    </>
                  ) : null}
                  {user.can.edit ? (
                    <Tooltip title="Edit">
                      <IconButton
                        component={RouterLink}
                        to={paths.editUser(user.id)}
                        aria-label={`Edit ${fullName(user)}`}
                      >
                        <EditIcon />
                      </IconButton>
                    </Tooltip>
                  ) : null}
                  {user.can.delete ? (
                    <Tooltip title="Delete">
                      <IconButton onClick={() => setToDelete(user)} aria-label={`Delete ${fullName(user)}`}>
                        <DeleteIcon />
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
        title="Delete user"
        message="Delete this user?"
        details={
          toDelete
            ? `${fullName(toDelete)} (${toDelete.email}) will no longer be able to sign in. Their comments and audit entries stay.`
            : undefined
        }
        isBusy={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : undefined}
        onClose={closeDelete}
        onConfirm={() => toDelete && remove.mutate(toDelete.id, { onSuccess: closeDelete })}
      />
      <EditClientsDialog user={clientsOf} onClose={() => setClientsOf(null)} />
    </>
  );
}
