import { ComingSoon } from "../../../components/coming-soon.tsx";

/** Placeholder: the clients feature issue replaces this screen. */
export default function ClientEditPage() {
  return <ComingSoon title="Edit Client" description="Client form (edit)." />;
}
