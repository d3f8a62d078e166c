import { PageHeader } from "../../../components/page-header.tsx";
import { UserAdminGate } from "../components/user-admin-gate.tsx";
import { UserForm } from "../components/user-form.tsx";

/** admin/users/new: the user form, create mode. */
export default function UserCreatePage() {
  return (
    <>
      <PageHeader title="Add User" />
      <UserAdminGate>
        <UserForm />
      </UserAdminGate>
    </>
  );
}
