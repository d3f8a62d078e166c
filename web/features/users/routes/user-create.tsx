import { ComingSoon } from "../../../components/coming-soon.tsx";

/** Placeholder: the users feature issue replaces this screen. */
export default function UserCreatePage() {
  return <ComingSoon title="Add User" description="User form (create)." />;
}
