import { ClientsScreen } from "../components/clients-screen.tsx";

/** /admin/clients */
export default function ClientsListPage() {
  return <ClientsScreen />;
}
