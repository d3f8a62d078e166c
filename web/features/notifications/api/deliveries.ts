import { useQuery } from "@tanstack/react-query";
import type { CompanyDeliveries } from "../../../../shared/schemas/reminders.ts";
import { api } from "../../../lib/api.ts";

export const deliveriesQueryKey = (companyId: string) => ["notifications", "deliveries", companyId] as const;

/** GET /api/notifications/deliveries: the company's 100 most recent reminder deliveries (the table pages them). */
export function useRecentDeliveries(companyId: string, enabled = true) {
  return useQuery({
    queryKey: deliveriesQueryKey(companyId),
    queryFn: ({ signal }) =>
      api
        .get<CompanyDeliveries>("/api/notifications/deliveries", {
          signal,
          query: { company_id: companyId, limit: 100 },
        })
        .then((r) => r.deliveries),
    enabled,
  });
}
