import { ClientsScreen } from "../components/clients-screen.tsx";

/** /admin/clients/new: the list with the drawer open on a new client. */
export default function ClientCreatePage() {
  return <ClientsScreen drawer="create" />;
}
