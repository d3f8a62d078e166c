import { ComingSoon } from "../../../components/coming-soon.tsx";

/** Placeholder: the users feature issue replaces this screen. */
export default function UsersListPage() {
  return <ComingSoon title="Users" description="Users table with Add User, Edit, Edit Clients and Delete." />;
}
