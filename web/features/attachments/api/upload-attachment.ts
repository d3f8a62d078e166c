import { useMutation } from "@tanstack/react-query";
import type { Attachment, AttachmentResponse } from "../../../../shared/schemas/attachments.ts";
import { apiUploadFile } from "../../../lib/api.ts";
import type { UploadFile } from "../../../components/dialog-kit/index.ts";
import { permitKeys } from "../../../lib/query-keys.ts";

/** How far an upload is, from 0 to 1. */
type Progress = (fraction: number) => void;

/** POST /api/permits/:id/attachments as multipart (field "file"), reporting upload progress. */
async function uploadAttachment(permitId: string, file: File, onProgress: Progress): Promise<Attachment> {
  const { attachment } = await apiUploadFile<AttachmentResponse>(
    `/api/permits/${permitId}/attachments`,
    file,
    onProgress,
  );
  return attachment;
}

/** The detail page's upload: one file (which archives the permit's current ones), progress from 0 to 1. */
export function useUploadAttachment(permitId: string, onProgress: Progress) {
  return useMutation({
    mutationFn: (file: File) => uploadAttachment(permitId, file, onProgress),
    meta: {
      successMessage: "File uploaded.",
      notifyError: false, // the card shows the error in place
      invalidates: [permitKeys.attachments(permitId), permitKeys.audit(permitId)],
    },
  });
}

/**
 * A file a form attaches to a permit: the permit form's, once the permit is saved (so the permit
 * id comes with the file), a renewal's, a bond ledger entry's document.
 */
export function useUploadPermitFile() {
  return useMutation({
    mutationFn: ({ permitId, file, onProgress }: { permitId: string; file: File; onProgress: Progress }) =>
      uploadAttachment(permitId, file, onProgress),
    // The form explains a failed upload itself (the permit was saved all the same, or nothing was).
    meta: { notifyError: false, invalidates: [permitKeys.all] },
  });
}

/**
 * A step dialog's document (web/components/dialog-kit) uploaded as one of the permit's files (a
 * renewal's new permit): it refreshes the permit's files and audit trail, nothing else.
 */
export function usePermitDocumentUpload(permitId: string): UploadFile {
  const { mutateAsync } = useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress: Progress }) =>
      uploadAttachment(permitId, file, onProgress),
    meta: { notifyError: false, invalidates: [permitKeys.attachments(permitId), permitKeys.audit(permitId)] },
  });
  return (file, onProgress) => mutateAsync({ file, onProgress });
}
