import { useMutation } from "@tanstack/react-query";
import type { Webhook, WebhookPatch } from "../../../../shared/schemas/webhooks.ts";
import { api } from "../../../lib/api.ts";
import { webhooksQueryKey } from "./list-webhooks.ts";

/**
 * PATCH /api/webhooks/:id: 'Edit' (its dialog shows the errors, and says "Webhook saved.") and
 * 'Disable' / 'Enable' (the screen says which).
 */
export function useUpdateWebhook({ isForm = false }: { isForm?: boolean } = {}) {
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: WebhookPatch }) =>
      api.patch<{ webhook: Webhook }>(`/api/webhooks/${id}`, patch).then((r) => r.webhook),
    meta: {
      notifyError: !isForm,
      invalidates: [webhooksQueryKey],
      ...(isForm ? { successMessage: "Webhook saved." } : {}),
    },
  });
}
