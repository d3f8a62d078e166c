import { ComingSoon } from "../../../components/coming-soon.tsx";

/** Placeholder: the projects feature issue replaces this screen. */
export default function ProjectsAdminPage() {
  return (
    <ComingSoon
      title="Projects Admin"
      description="Projects table with permit counts and the Create New Project dialog."
    />
  );
}
