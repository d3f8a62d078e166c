import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CalendarFeed } from "../../../../shared/schemas/calendar.ts";
import { api } from "../../../lib/api.ts";

export const calendarFeedQueryKey = ["calendar-feed"] as const;

/** GET /api/me/calendar-token: whether the user has a feed (the URL itself is shown only once). */
export function useCalendarFeed(enabled: boolean) {
  return useQuery({
    queryKey: calendarFeedQueryKey,
    queryFn: ({ signal }) => api.get<CalendarFeed>("/api/me/calendar-token", { signal }),
    enabled,
  });
}

/** POST /api/me/calendar-token: a new feed URL; any previous one stops working. */
export function useCreateCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<CalendarFeed>("/api/me/calendar-token"),
    onSuccess: (feed) => queryClient.setQueryData(calendarFeedQueryKey, { ...feed, url: null }),
  });
}

/** DELETE /api/me/calendar-token. */
export function useRevokeCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<CalendarFeed>("/api/me/calendar-token"),
    onSuccess: (feed) => queryClient.setQueryData(calendarFeedQueryKey, feed),
    meta: { successMessage: "Calendar feed revoked." },
  });
}
