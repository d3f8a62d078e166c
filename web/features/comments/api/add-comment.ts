import { useMutation } from "@tanstack/react-query";
import type { Comment, CreateComment } from "../../../../shared/schemas/comments.ts";
import { api } from "../../../lib/api.ts";
import { permitKeys } from "../../../lib/query-keys.ts";

/**
 * POST /api/permits/:id/comments. Invalidates every permits query: besides this page's comments
 * and audit trail, the comment count shows here and in the All Permits list.
 */
export function useAddComment(permitId: string) {
  return useMutation({
    mutationFn: (body: CreateComment) =>
      api.post<{ comment: Comment }>(`/api/permits/${permitId}/comments`, body).then((r) => r.comment),
    // The form shows a failure in place.
    meta: { successMessage: "Comment added.", notifyError: false, invalidates: [permitKeys.all] },
  });
}
