import { SuretiesScreen } from "../components/sureties-screen.tsx";

/** /admin/sureties/new: the list with the drawer open on a new surety. */
export default function SuretyCreatePage() {
  return <SuretiesScreen drawer="create" />;
}
