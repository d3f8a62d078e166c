import { useMutation } from "@tanstack/react-query";
import type { Attachment, AttachmentResponse } from "../../../../../../shared/schemas/attachments.ts";
import { apiUpload, ApiError } from "../../../../../lib/api.ts";
import { permitDetailKeys } from "./keys.ts";

/** POST /api/permits/:id/attachments as multipart, reporting upload progress. */
async function uploadAttachment(
  permitId: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<Attachment> {
  const form = new FormData();
  form.append("file", file);
  try {
    const { attachment } = await apiUpload<AttachmentResponse>(`/api/permits/${permitId}/attachments`, form, {
      onProgress,
    });
    return attachment;
  } catch (err) {
    // The card shows the field message ("The file is empty.") rather than the generic one.
    if (err instanceof ApiError && err.fields?.file)
      throw new ApiError(err.status, err.code, err.fields.file, err.fields);
    throw err;
  }
}

/** Uploads one file (which archives the permit's current ones) and reports progress from 0 to 1. */
export function useUploadAttachment(permitId: string, onProgress: (fraction: number) => void) {
  return useMutation({
    mutationFn: (file: File) => uploadAttachment(permitId, file, onProgress),
    meta: {
      successMessage: "File uploaded.",
      notifyError: false, // the card shows the error in place
      invalidates: [permitDetailKeys.attachments(permitId), permitDetailKeys.audit(permitId)],
    },
  });
}
