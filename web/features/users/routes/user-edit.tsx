import { useParams } from "react-router";
import Alert from "@mui/material/Alert";
import { PageHeader } from "../../../components/page-header.tsx";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useUser } from "../api/get-user.ts";
import { AccountStatus } from "../components/account-status.tsx";
import { TwoFactorStatus } from "../components/two-factor-status.tsx";
import { UserAdminGate } from "../components/user-admin-gate.tsx";
import { UserForm } from "../components/user-form.tsx";

/** admin/users/{id}/edit: the user form, edit mode, the account's disable/enable, its two-factor reset. */
export default function UserEditPage() {
  return (
    <>
      <PageHeader title="Edit User" />
      <UserAdminGate>
        <EditUser />
      </UserAdminGate>
    </>
  );
}

function EditUser() {
  const { id } = useParams();
  const user = useUser(id);
  if (!id) return <Alert severity="error">User ID not available.</Alert>;
  if (user.isPending) return <PageSpinner label="Loading user..." />;
  if (user.isError) return <Alert severity="error">{errorMessage(user.error)}</Alert>;
  return (
    <>
      <UserForm key={user.data.id} user={user.data} />
      <AccountStatus user={user.data} />
      <TwoFactorStatus user={user.data} />
    </>
  );
}
