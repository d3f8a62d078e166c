import { ComingSoon } from "../../../components/coming-soon.tsx";

/** Placeholder: the templates feature issue replaces this screen. */
export default function PermitTemplatesPage() {
  return (
    <ComingSoon
      title="Permit Templates"
      description="Templates table with add, inline edit, status switch and delete."
    />
  );
}
