import { ComingSoon } from "../../../components/coming-soon.tsx";

/** Placeholder: the admin feature issue replaces this screen. */
export default function AdminDashboardPage() {
  return (
    <ComingSoon
      title="Admin Dashboard"
      description="Links to companies, users, projects and notification settings."
    />
  );
}
