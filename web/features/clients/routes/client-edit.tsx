import { ClientsScreen } from "../components/clients-screen.tsx";

/** /admin/clients/{id}/edit: the list with the drawer open on that client. */
export default function ClientEditPage() {
  return <ClientsScreen drawer="edit" />;
}
