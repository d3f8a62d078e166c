import { ComingSoon } from "../../../components/coming-soon.tsx";

/** Placeholder: the companies feature issue replaces this screen. */
export default function CompanyEditPage() {
  return <ComingSoon title="Edit Company" description="Company form (edit)." />;
}
