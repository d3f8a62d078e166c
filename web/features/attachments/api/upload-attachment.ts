import { useMutation } from "@tanstack/react-query";
import type { Attachment, AttachmentResponse } from "../../../../shared/schemas/attachments.ts";
import { apiUpload, ApiError } from "../../../lib/api.ts";
import { permitKeys } from "./keys.ts";

/** POST /api/permits/:id/attachments as multipart (field "file"), reporting upload progress. */
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
    // The field message ("The file is empty.") says more than the generic one.
    if (err instanceof ApiError && err.fields?.file)
      throw new ApiError(err.status, err.code, err.fields.file, err.fields);
    throw err;
  }
}

/** The detail page's upload: one file (which archives the permit's current ones), progress from 0 to 1. */
export function useUploadAttachment(permitId: string, onProgress: (fraction: number) => void) {
  return useMutation({
    mutationFn: (file: File) => uploadAttachment(permitId, file, onProgress),
    meta: {
      successMessage: "File uploaded.",
      notifyError: false, // the card shows the error in place
      invalidates: [permitKeys.attachments(permitId), permitKeys.audit(permitId)],
    },
  });
}

/** The permit form's upload, once the permit is saved (so the permit id comes with the file). */
export function useUploadPermitFile(onProgress: (fraction: number) => void) {
  return useMutation({
    mutationFn: ({ permitId, file }: { permitId: string; file: File }) =>
      uploadAttachment(permitId, file, onProgress),
    // The form explains a failed upload itself: the permit was saved all the same.
    meta: { notifyError: false, invalidates: [permitKeys.all] },
  });
}
