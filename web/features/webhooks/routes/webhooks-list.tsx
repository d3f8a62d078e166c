import { WebhooksScreen } from "../components/webhooks-screen.tsx";

/** /admin/webhooks */
export default function WebhooksListPage() {
  return <WebhooksScreen />;
}
