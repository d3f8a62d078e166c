import { ComingSoon } from "../../../components/coming-soon.tsx";

/** Placeholder: the projects feature issue replaces this screen. */
export default function ProjectDashboardPage() {
  return (
    <ComingSoon
      title="Project Dashboard"
      description="Analytics, project information and the project's permits."
    />
  );
}
