import { useQuery } from "@tanstack/react-query";
import type { SuretyList } from "../../../../shared/schemas/bonds.ts";
import { api } from "../../../lib/api.ts";
import { suretiesQueryKey } from "../../../lib/query-keys.ts";

// Every query about sureties starts with suretiesQueryKey (lib/query-keys.ts: a permit change
// invalidates it too), so one invalidation refreshes them all.
export { suretiesQueryKey };

/**
 * GET /api/sureties: the company's sureties by name (a super-admin's: every company's, or the one
 * named). The one lookup of sureties: Surety Admin, the bond form's Surety Company and the Bonds
 * page's Surety filter share it. Limits come only to those who may see them.
 */
export function useSureties(companyId?: string | null, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: [...suretiesQueryKey, "list", companyId ?? null],
    queryFn: ({ signal }) =>
      api.get<SuretyList>("/api/sureties", { signal, query: { company_id: companyId } }),
    enabled,
    staleTime: 60_000,
  });
}
