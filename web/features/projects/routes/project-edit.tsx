import { ComingSoon } from "../../../components/coming-soon.tsx";

/** Placeholder: the projects feature issue replaces this screen. */
export default function ProjectEditPage() {
  return <ComingSoon title="Edit Project" description="Project form (edit)." />;
}
