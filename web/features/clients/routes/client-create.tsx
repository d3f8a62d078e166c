import { ComingSoon } from "../../../components/coming-soon.tsx";

/** Placeholder: the clients feature issue replaces this screen. */
export default function ClientCreatePage() {
  return <ComingSoon title="New Client" description="Client form (create)." />;
}
