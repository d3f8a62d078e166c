import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { RequestQueueState } from "../../../../shared/domain/document-requests.ts";
import type { AwaitingCount, RequestQueue } from "../../../../shared/schemas/request-queue.ts";
import { api } from "../../../lib/api.ts";
import { requestQueueKey } from "../../../lib/query-keys.ts";

export interface RequestQueueParams {
  companyId: string | null;
  state: RequestQueueState;
  party: string;
  dueFrom: string;
  dueTo: string;
  page: number;
  pageSize: number;
}

/** GET /api/requests: one page of the company-wide Requests page. */
export function useRequestQueue(params: RequestQueueParams, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: [...requestQueueKey, "list", params],
    queryFn: ({ signal }) =>
      api.get<RequestQueue>("/api/requests", {
        signal,
        query: {
          company_id: params.companyId,
          state: params.state,
          party: params.party || undefined,
          due_from: params.dueFrom || undefined,
          due_to: params.dueTo || undefined,
          page: params.page,
          page_size: params.pageSize,
        },
      }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/**
 * GET /api/requests/awaiting-count: the nav's badge for reviewers. Read again when the window
 * regains focus, every five minutes, and after a request is approved, rejected or revoked here.
 */
export function useAwaitingReviewCount({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: [...requestQueueKey, "awaiting-count"],
    queryFn: ({ signal }) => api.get<AwaitingCount>("/api/requests/awaiting-count", { signal }),
    enabled,
    select: (data) => data.count,
    staleTime: 30_000,
    refetchOnWindowFocus: true,
    refetchInterval: 5 * 60_000,
  });
}
