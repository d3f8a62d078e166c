import { useMutation, useQuery } from "@tanstack/react-query";
import {
  NOTIFICATION_MESSAGES,
  type NotificationSettings,
  type UpdateNotificationSettings,
} from "../../../../shared/schemas/notifications.ts";
import { api } from "../../../lib/api.ts";
import { deliveriesQueryKey } from "./deliveries.ts";

export const settingsQueryKey = (companyId: string) => ["notifications", "settings", companyId] as const;

/**
 * GET /api/notifications/settings. `companyId` "" means the user's own company (a company-admin);
 * a super-admin passes the company it picked.
 */
export function useNotificationSettings(companyId: string, enabled = true) {
  return useQuery({
    queryKey: settingsQueryKey(companyId),
    queryFn: ({ signal }) =>
      api.get<NotificationSettings>("/api/notifications/settings", {
        signal,
        query: { company_id: companyId },
      }),
    enabled,
  });
}

/** PUT /api/notifications/settings: switches and the whole recipient list. */
export function useSaveNotificationSettings(companyId: string) {
  return useMutation({
    mutationFn: (body: UpdateNotificationSettings) =>
      api.put<NotificationSettings>("/api/notifications/settings", body, {
        query: { company_id: companyId },
      }),
    meta: {
      notifyError: false, // the form shows the error
      successMessage: NOTIFICATION_MESSAGES.saved,
      invalidates: [settingsQueryKey(companyId), deliveriesQueryKey(companyId)],
    },
  });
}
