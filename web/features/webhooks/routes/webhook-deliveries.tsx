import { useParams } from "react-router";
import { DeliveriesScreen } from "../components/deliveries-screen.tsx";

/** /admin/webhooks/:id/deliveries */
export default function WebhookDeliveriesPage() {
  const { id = "" } = useParams();
  return <DeliveriesScreen webhookId={id} />;
}
