import { RequestsScreen } from "../components/requests-screen.tsx";

/** /requests */
export default function RequestsPage() {
  return <RequestsScreen />;
}
