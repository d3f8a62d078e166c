import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { AttachmentList } from "../../../../shared/schemas/attachments.ts";
import { api } from "../../../lib/api.ts";
import { permitKeys } from "../../../lib/query-keys.ts";

/** GET /api/permits/:id/attachments, with or without the archived ones. */
export function useAttachments(permitId: string, includeArchived: boolean) {
  return useQuery({
    queryKey: [...permitKeys.attachments(permitId), { includeArchived }],
    queryFn: ({ signal }) =>
      api.get<AttachmentList>(`/api/permits/${permitId}/attachments`, {
        signal,
        query: { include_archived: includeArchived },
      }),
    select: (data) => data.attachments,
    // Toggling "Show archived" keeps the current list on screen instead of flashing a spinner.
    placeholderData: keepPreviousData,
  });
}
