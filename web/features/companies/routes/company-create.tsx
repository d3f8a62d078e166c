import { ComingSoon } from "../../../components/coming-soon.tsx";

/** Placeholder: the companies feature issue replaces this screen. */
export default function CompanyCreatePage() {
  return <ComingSoon title="New Company" description="Company form (create)." />;
}
