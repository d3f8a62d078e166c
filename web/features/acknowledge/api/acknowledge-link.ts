import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AcknowledgeLink } from "../../../../shared/schemas/lifecycle.ts";
import { api } from "../../../lib/api.ts";

const linkKey = (token: string) => ["acknowledge-link", token] as const;

/**
 * GET /api/acknowledgements/:token: what a reminder's Acknowledge link is about. Only reads:
 * mail scanners open links, so opening the page must never acknowledge.
 */
export function useAcknowledgeLink(token: string) {
  return useQuery({
    queryKey: linkKey(token),
    queryFn: ({ signal }) =>
      api.get<AcknowledgeLink>(`/api/acknowledgements/${encodeURIComponent(token)}`, { signal }),
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/** POST /api/acknowledgements/:token: the page's Acknowledge button, without signing in. */
export function useAcknowledgeByLink(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<AcknowledgeLink>(`/api/acknowledgements/${encodeURIComponent(token)}`, {}),
    onSuccess: (link) => queryClient.setQueryData(linkKey(token), link),
    // The page shows the outcome (and a failure) in place.
    meta: { successMessage: "Acknowledged.", notifyError: false },
  });
}
