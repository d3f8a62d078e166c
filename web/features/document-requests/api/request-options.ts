import { useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";
import { permitKeys } from "../../../lib/query-keys.ts";
import type { RequestOptions } from "./types.ts";

/** GET /api/permits/:id/request-options: the company's contacts, the permit's own first (the dialog's). */
export function useRequestOptions(permitId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...permitKeys.detail(permitId), "request-options"],
    queryFn: ({ signal }) => api.get<RequestOptions>(`/api/permits/${permitId}/request-options`, { signal }),
    enabled,
  });
}
