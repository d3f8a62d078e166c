import { ComingSoon } from "../../../components/coming-soon.tsx";

/** Placeholder: the permits feature issue replaces this screen. */
export default function PermitDetailPage() {
  return (
    <ComingSoon
      title="Permit Details"
      description="Project info, agency, status, timeline, attachments, comments and audit trail."
    />
  );
}
