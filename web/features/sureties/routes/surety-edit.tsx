import { SuretiesScreen } from "../components/sureties-screen.tsx";

/** /admin/sureties/{id}/edit: the list with the drawer open on that surety. */
export default function SuretyEditPage() {
  return <SuretiesScreen drawer="edit" />;
}
