import { useMutation, useQuery } from "@tanstack/react-query";
import type { WebhookDeliveryList, WebhookDeliveryResponse } from "../../../../shared/schemas/webhooks.ts";
import { api } from "../../../lib/api.ts";
import { webhooksQueryKey } from "./list-webhooks.ts";

/** GET /api/webhooks/:id/deliveries: one endpoint's delivery log, newest first, a page at a time. */
export function useWebhookDeliveries(id: string, page: number) {
  return useQuery({
    queryKey: [...webhooksQueryKey, "deliveries", id, page],
    queryFn: ({ signal }) =>
      api.get<WebhookDeliveryList>(`/api/webhooks/${id}/deliveries`, { signal, query: { page } }),
  });
}

// Both answer once the attempt was made; the screen's toast says how it went ("Delivered (200)").

/** POST /api/webhooks/:id/deliveries/:deliveryId/resend: the same message (webhook-id) once more. */
export function useResendDelivery(webhookId: string) {
  return useMutation({
    mutationFn: (deliveryId: string) =>
      api
        .post<WebhookDeliveryResponse>(`/api/webhooks/${webhookId}/deliveries/${deliveryId}/resend`)
        .then((r) => r.delivery),
    meta: { invalidates: [webhooksQueryKey] },
  });
}

/** POST /api/webhooks/:id/test: 'Send Test Event' to this endpoint alone. */
export function useSendTestEvent() {
  return useMutation({
    mutationFn: (webhookId: string) =>
      api.post<WebhookDeliveryResponse>(`/api/webhooks/${webhookId}/test`).then((r) => r.delivery),
    meta: { invalidates: [webhooksQueryKey] },
  });
}
