import { ComingSoon } from "../../../components/coming-soon.tsx";

/** Placeholder: the clients feature issue replaces this screen. */
export default function ClientsListPage() {
  return <ComingSoon title="Clients" description="Clients table and the New Client drawer." />;
}
