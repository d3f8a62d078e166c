import { useMutation } from "@tanstack/react-query";
import type { AttachmentResponse } from "../../../../shared/schemas/attachments.ts";
import { ApiError, apiUpload } from "../../../lib/api.ts";
import { permitKeys } from "./keys.ts";

/** POST /api/permits/:id/attachments with the form's chosen file (multipart field "file"). */
export function useUploadPermitFile(onProgress: (fraction: number) => void) {
  return useMutation({
    mutationFn: async ({ permitId, file }: { permitId: string; file: File }) => {
      const form = new FormData();
      form.append("file", file);
      try {
        return await apiUpload<AttachmentResponse>(`/api/permits/${permitId}/attachments`, form, {
          onProgress,
        });
      } catch (err) {
        // "The file is empty." says more than the generic message.
        if (err instanceof ApiError && err.fields?.file)
          throw new ApiError(err.status, err.code, err.fields.file, err.fields);
        throw err;
      }
    },
    // The form explains a failed upload itself: the permit was saved all the same.
    meta: { notifyError: false, invalidates: [permitKeys.all] },
  });
}
