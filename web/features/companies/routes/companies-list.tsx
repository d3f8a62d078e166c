import { ComingSoon } from "../../../components/coming-soon.tsx";

/** Placeholder: the companies feature issue replaces this screen. */
export default function CompaniesListPage() {
  return <ComingSoon title="Companies" description="Companies table and company form." />;
}
