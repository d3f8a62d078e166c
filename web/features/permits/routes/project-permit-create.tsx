import { ComingSoon } from "../../../components/coming-soon.tsx";

/** Placeholder: the permits feature issue replaces this screen. */
export default function ProjectPermitCreatePage() {
  return <ComingSoon title="New Permit" description="Permit form (create within a project)." />;
}
