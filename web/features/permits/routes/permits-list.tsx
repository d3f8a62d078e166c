import { ComingSoon } from "../../../components/coming-soon.tsx";

/** Placeholder: the permits feature issue replaces this screen. */
export default function PermitsListPage() {
  return (
    <ComingSoon
      title="All Permits"
      description="Permits grouped by client and project, with charts, summary tiles, filters and sorting."
    />
  );
}
