import { SuretiesScreen } from "../components/sureties-screen.tsx";

/** /admin/sureties */
export default function SuretiesListPage() {
  return <SuretiesScreen />;
}
