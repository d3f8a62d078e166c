import { useState } from "react";
import { Link as RouterLink } from "react-router";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import AddIcon from "@mui/icons-material/PersonAddAlt1Outlined";
import { ListEmptyState } from "../../../components/getting-started.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { paths } from "../../../lib/paths.ts";
import { useCan, useMe } from "../../../lib/session.tsx";
import { CompanySelect } from "../../companies/index.ts";
import { useUsers } from "../api/get-users.ts";
import { UserAdminGate } from "../components/user-admin-gate.tsx";
import { UsersTable } from "../components/users-table.tsx";
import { EMPTY_STATES } from "../../../../shared/domain/empty-states.ts";

/** admin/users: the users table with 'Add User'; a super-admin can narrow it to one company. */
export default function UsersListPage() {
  const canManage = useMe().data?.capabilities.includes("users.manage");
  return (
    <>
      <PageHeader
        title="Users"
        actions={
          canManage ? (
            <Button component={RouterLink} to={paths.newUser} variant="contained" startIcon={<AddIcon />}>
              Add User
            </Button>
          ) : null
        }
      />
      <UserAdminGate>
        <UsersScreen />
      </UserAdminGate>
    </>
  );
}

function UsersScreen() {
  const isSuperAdmin = useCan("allCompanies");
  const [companyId, setCompanyId] = useState("");
  const users = useUsers(companyId);
  return (
    <>
      {isSuperAdmin ? (
        <CompanySelect
          value={companyId}
          onChange={setCompanyId}
          allLabel="All companies"
          size="small"
          sx={{ mb: 2, minWidth: 260 }}
        />
      ) : null}
      {users.isPending ? (
        <PageSpinner label="Loading users..." />
      ) : users.isError ? (
        <Alert severity="error">{errorMessage(users.error)}</Alert>
      ) : users.data.users.length === 0 ? (
        <Paper variant="outlined">
          {/* A chosen company without users: "nothing matches" (issue 25). */}
          {companyId ? (
            <ListEmptyState text={EMPTY_STATES.users.filtered} onClear={() => setCompanyId("")} />
          ) : (
            <ListEmptyState text={EMPTY_STATES.users.none} />
          )}
        </Paper>
      ) : (
        <UsersTable users={users.data.users} showCompany={isSuperAdmin} />
      )}
    </>
  );
}
