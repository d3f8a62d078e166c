import { useQuery } from "@tanstack/react-query";
import type { WebhookList } from "../../../../shared/schemas/webhooks.ts";
import { api } from "../../../lib/api.ts";

/** Every query about webhooks starts with this key, so one invalidation refreshes them all. */
export const webhooksQueryKey = ["webhooks"] as const;

/** GET /api/webhooks: the company's endpoints (a super-admin names the company). */
export function useWebhooks(companyId: string | null, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: [...webhooksQueryKey, "list", companyId],
    queryFn: ({ signal }) =>
      api.get<WebhookList>("/api/webhooks", { signal, query: { company_id: companyId } }),
    enabled,
  });
}
