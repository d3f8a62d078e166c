import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Comment, CommentList, CreateComment } from "../../../../shared/schemas/comments.ts";
import type { PermitDetail } from "../../../../shared/schemas/permits.ts";
import { api } from "../../../lib/api.ts";
import { afterCardWrite, permitKeys } from "../../../lib/query-keys.ts";

/**
 * POST /api/permits/:id/comments. The answer is the new comment: it goes after this page's (oldest first)
 * comments and the detail's count goes up, without fetching either again; the lists (their comment
 * counts) and the audit trail are.
 */
export function useAddComment(permitId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateComment) =>
      api.post<{ comment: Comment }>(`/api/permits/${permitId}/comments`, body).then((r) => r.comment),
    onSuccess: (comment) => {
      client.setQueryData<CommentList>(permitKeys.comments(permitId), (list) =>
        list ? { ...list, comments: [...list.comments, comment] } : list,
      );
      client.setQueryData<PermitDetail>(permitKeys.detail(permitId), (detail) =>
        detail ? { ...detail, comment_count: detail.comment_count + 1 } : detail,
      );
    },
    // The form shows a failure in place.
    meta: { successMessage: "Comment added.", notifyError: false, invalidates: afterCardWrite(permitId) },
  });
}
