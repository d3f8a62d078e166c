import { useMutation } from "@tanstack/react-query";
import type { AttachmentResponse } from "../../../../shared/schemas/attachments.ts";
import { api } from "../../../lib/api.ts";
import { permitKeys } from "./keys.ts";

/** POST /api/permits/:id/attachments with the form's chosen file (multipart field "file"). */
export function useUploadPermitFile() {
  return useMutation({
    mutationFn: ({ permitId, file }: { permitId: string; file: File }) => {
      const form = new FormData();
      form.append("file", file);
      return api.post<AttachmentResponse>(`/api/permits/${permitId}/attachments`, form);
    },
    // The form explains a failed upload itself: the permit was saved all the same.
    meta: { notifyError: false, invalidates: [permitKeys.all] },
  });
}
