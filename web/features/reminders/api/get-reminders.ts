import { useQuery } from "@tanstack/react-query";
import type { PermitReminders } from "../../../../shared/schemas/reminders.ts";
import { api, ApiError } from "../../../lib/api.ts";
import { permitKeys } from "../../../lib/query-keys.ts";

/** The permit's reminder log and its 'Renewal Pending' pause (issue 27); staff only (it names staff e-mail addresses): ask only with reminders.view. */
export function usePermitReminders(permitId: string) {
  return useQuery({
    queryKey: permitKeys.reminders(permitId),
    queryFn: async ({ signal }) => {
      try {
        const data = await api.get<PermitReminders>(`/api/permits/${permitId}/reminders`, {
          signal,
        });
        return data;
      } catch (error) {
        // A server without the reminders feature answers 404: nothing was sent, then.
        if (error instanceof ApiError && error.status === 404) {
          return { deliveries: [], renewalPendingUntil: null } satisfies PermitReminders;
        }
        throw error;
      }
    },
  });
}
