import { useMutation } from "@tanstack/react-query";
import type { WebhookCreated, WebhookFormValues } from "../../../../shared/schemas/webhooks.ts";
import { api } from "../../../lib/api.ts";
import { webhooksQueryKey } from "./list-webhooks.ts";

/** POST /api/webhooks: the answer holds the signing secret, this once. The dialog shows a field's error on the field. */
export function useCreateWebhook() {
  return useMutation({
    mutationFn: (body: WebhookFormValues) => api.post<WebhookCreated>("/api/webhooks", body),
    // The secret shown in the next dialog is the feedback.
    meta: { notifyError: false, invalidates: [webhooksQueryKey] },
  });
}
