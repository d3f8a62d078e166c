import { useQuery } from "@tanstack/react-query";
import type { CommentList } from "../../../../shared/schemas/comments.ts";
import { api } from "../../../lib/api.ts";
import { permitKeys } from "../../../lib/query-keys.ts";

/** GET /api/permits/:id/comments: oldest first; the server leaves out what the user may not see. */
export function useComments(permitId: string) {
  return useQuery({
    queryKey: permitKeys.comments(permitId),
    queryFn: ({ signal }) => api.get<CommentList>(`/api/permits/${permitId}/comments`, { signal }),
    select: (data) => data.comments,
  });
}
