import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";
import { webhooksQueryKey } from "./list-webhooks.ts";

/** DELETE /api/webhooks/:id: the endpoint and its delivery log are gone. */
export function useDeleteWebhook() {
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/api/webhooks/${id}`),
    // The confirmation shows a failure in place.
    meta: { notifyError: false, invalidates: [webhooksQueryKey], successMessage: "Webhook deleted." },
  });
}
