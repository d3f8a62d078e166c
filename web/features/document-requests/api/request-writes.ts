import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";
import { afterCardWrite, permitKeys, requestQueueKey } from "../../../lib/query-keys.ts";
import { requestsKey } from "./permit-requests.ts";
import type { NewRequestBody, RequestView } from "./types.ts";

type Answer = { request: RequestView };

/** The card takes the write's answer in place of the request it had (or first, when new). */
function takeAnswer(client: QueryClient, permitId: string, request: RequestView) {
  client.setQueryData<{ items: RequestView[] }>(requestsKey(permitId), (data) => {
    if (!data) return data;
    const known = data.items.some((item) => item.id === request.id);
    return {
      items: known
        ? data.items.map((item) => (item.id === request.id ? request : item))
        : [request, ...data.items],
    };
  });
}

/** 'Send Request': POST /api/permits/:id/requests. A new name and e-mail become a contact too. */
export function useCreateRequest(permitId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NewRequestBody) => api.post<Answer>(`/api/permits/${permitId}/requests`, body),
    onSuccess: ({ request }) => takeAnswer(client, permitId, request),
    meta: {
      successMessage: (data) => `Request sent to ${(data as Answer).request.partyName ?? "the contact"}`,
      // The dialog shows the error and the field messages itself.
      notifyError: false,
      invalidates: [
        permitKeys.audit(permitId),
        [...permitKeys.detail(permitId), "request-options"],
        requestQueueKey,
      ],
    },
  });
}

/**
 * Approve: what the party sent becomes the permit's (a renewal's new term, a rider's ledger entry,
 * the files among the permit's), so the cards that show those are read again: the detail itself
 * (exactly: not every card under it), the lifecycle, the bond's ledger, the files, the reminders
 * (a new date cancels those waiting), the audit trail and the lists.
 */
export function useApproveRequest(permitId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, submissionId }: { id: string; submissionId: string }) =>
      api.post<Answer>(`/api/requests/${id}/approve`, { submissionId }),
    onSuccess: async ({ request }) => {
      takeAnswer(client, permitId, request);
      await client.invalidateQueries({ queryKey: permitKeys.detail(permitId), exact: true });
    },
    meta: {
      successMessage: (data) => `${(data as Answer).request.documentLabel} approved`,
      invalidates: [
        ...afterCardWrite(permitId),
        permitKeys.lifecycle(permitId),
        permitKeys.bondLedger(permitId),
        permitKeys.attachments(permitId),
        permitKeys.reminders(permitId),
        requestQueueKey,
      ],
    },
  });
}

/** Reject with a reason: the party sees it on the link's page and may send again. */
export function useRejectRequest(permitId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, submissionId, reason }: { id: string; submissionId: string; reason: string }) =>
      api.post<Answer>(`/api/requests/${id}/reject`, { submissionId, reason }),
    onSuccess: ({ request }) => takeAnswer(client, permitId, request),
    meta: {
      successMessage: "Submission rejected; the contact can send it again",
      notifyError: false,
      invalidates: [...afterCardWrite(permitId), requestQueueKey],
    },
  });
}

/** Revoke an open request: its link stops working. */
export function useRevokeRequest(permitId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<Answer>(`/api/requests/${id}/revoke`, {}),
    onSuccess: ({ request }) => takeAnswer(client, permitId, request),
    meta: {
      successMessage: "Request revoked; its link no longer works",
      notifyError: false,
      invalidates: [...afterCardWrite(permitId), requestQueueKey],
    },
  });
}

/** A submitted file's download address (staff who may read the permit). */
export const requestFileUrl = (requestId: string, fileId: string) =>
  `/api/requests/${requestId}/files/${fileId}`;
