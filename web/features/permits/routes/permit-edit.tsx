import { ComingSoon } from "../../../components/coming-soon.tsx";

/** Placeholder: the permits feature issue replaces this screen. */
export default function PermitEditPage() {
  return <ComingSoon title="Edit Permit" description="Permit form (edit)." />;
}
