import { useState } from "react";
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
import ClientsIcon from "@mui/icons-material/FilterAltOutlined";
import ResetTwoFactorIcon from "@mui/icons-material/PhonelinkEraseOutlined";
import { ROLE_LABELS } from "../../../../shared/domain/roles.ts";
import type { User } from "../../../../shared/schemas/users.ts";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { RowActions } from "../../../components/row-actions.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { paths } from "../../../lib/paths.ts";
import { useDeleteUser } from "../api/delete-user.ts";
import { EditClientsDialog } from "./edit-clients-dialog.tsx";
import { ResetTwoFactorDialog } from "./reset-two-factor-dialog.tsx";

// Columns that fold into the name cell on a phone.
const wide = { display: { xs: "none", md: "table-cell" } } as const;
const narrowOnly = { display: { xs: "block", md: "none" } } as const;
const wideOnly = { display: { xs: "none", md: "inline-flex" } } as const;

const fullName = (u: User) => `${u.firstName} ${u.lastName}`.trim() || u.email;

/**
 * Users table (spec section 2): Edit, 'Edit Clients' for client-users, Delete ('Delete this
 * user?'), and 'Reset Two-Factor' for a user with an authenticator app (a lost phone). Disabled
 * users are greyed and have no Delete. Every action shown is one the API allows.
 */
export function UsersTable({ users, showCompany }: { users: User[]; showCompany: boolean }) {
  const [toDelete, setToDelete] = useState<User | null>(null);
  const [clientsOf, setClientsOf] = useState<User | null>(null);
  const [twoFactorOf, setTwoFactorOf] = useState<User | null>(null);
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
                    ? // Greyed, yet readable (4.5:1): the secondary text colour (issue 14).
                      { bgcolor: "action.hover", "& > td": { color: "text.secondary" } }
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
                  {user.can.editClients ? (
                    // On a phone the Clients column folds in here too, so nothing is off-screen.
                    <Typography
                      variant="body2"
                      sx={{ ...narrowOnly, color: user.disabled ? "inherit" : "text.secondary" }}
                    >
                      {user.clients.length
                        ? `Clients: ${user.clients.map((c) => c.name).join(", ")}`
                        : "No clients: sees no permits"}
                    </Typography>
                  ) : null}
                </TableCell>
                <TableCell sx={wide}>{user.email}</TableCell>
                <TableCell sx={wide}>{ROLE_LABELS[user.role]}</TableCell>
                {showCompany ? <TableCell sx={wide}>{user.companyName ?? "No Company"}</TableCell> : null}
                <TableCell sx={wide}>
                  {/* The API offers Edit Clients exactly for users limited to chosen clients (every row
                      here is one the viewer manages); everyone else sees all the company's clients. */}
                  {user.can.editClients ? (
                    user.clients.length ? (
                      user.clients.map((c) => c.name).join(", ")
                    ) : (
                      <Typography variant="body2" color="warning.dark">
                        None (sees no permits)
                      </Typography>
                    )
                  ) : (
                    "All"
                  )}
                </TableCell>
                <RowActions
                  name={fullName(user)}
                  can={user.can}
                  editTo={paths.editUser(user.id)}
                  onDelete={() => setToDelete(user)}
                >
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
                  {user.can.resetTwoFactor ? (
                    <Tooltip title="Reset Two-Factor">
                      {/* On a phone the row has no room for it: the user form has the same button. */}
                      <IconButton
                        onClick={() => setTwoFactorOf(user)}
                        aria-label={`Reset Two-Factor of ${fullName(user)}`}
                        sx={{ display: { xs: "none", sm: "inline-flex" } }}
                      >
                        <ResetTwoFactorIcon />
                      </IconButton>
                    </Tooltip>
                  ) : null}
                </RowActions>
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
      <ResetTwoFactorDialog user={twoFactorOf} onClose={() => setTwoFactorOf(null)} />
    </>
  );
}
