import { useQuery } from "@tanstack/react-query";
import type { ApiKeyList } from "../../../../shared/schemas/api-keys.ts";
import { api } from "../../../lib/api.ts";

/** Every query about API keys starts with this key, so one invalidation refreshes them all. */
export const apiKeysQueryKey = ["api-keys"] as const;

/** GET /api/api-keys: the company's keys (a super-admin names the company, or sees them all). */
export function useApiKeys(companyId: string | null, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: [...apiKeysQueryKey, "list", companyId],
    queryFn: ({ signal }) =>
      api.get<ApiKeyList>("/api/api-keys", { signal, query: { company_id: companyId } }),
    enabled,
  });
}
