import { ApiKeysScreen } from "../components/api-keys-screen.tsx";

/** /admin/api-keys */
export default function ApiKeysListPage() {
  return <ApiKeysScreen />;
}
