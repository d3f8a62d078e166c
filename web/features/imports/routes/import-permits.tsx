import { ComingSoon } from "../../../components/coming-soon.tsx";

/** Placeholder: the imports feature issue replaces this screen. */
export default function ImportPermitsPage() {
  return (
    <ComingSoon
      title="Import Permits from CSV"
      description="Upload a CSV, preview the first rows and import."
    />
  );
}
