import { ComingSoon } from "../../../components/coming-soon.tsx";

/** Placeholder: the users feature issue replaces this screen. */
export default function UserEditPage() {
  return <ComingSoon title="Edit User" description="User form (edit)." />;
}
