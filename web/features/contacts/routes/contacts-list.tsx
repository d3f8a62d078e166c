import { ContactsScreen } from "../components/contacts-screen.tsx";

/** /admin/contacts */
export default function ContactsListPage() {
  return <ContactsScreen />;
}
