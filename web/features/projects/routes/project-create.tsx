import { ComingSoon } from "../../../components/coming-soon.tsx";

/** Placeholder: the projects feature issue replaces this screen. */
export default function ProjectCreatePage() {
  return <ComingSoon title="Add New Project" description="Project form (create)." />;
}
