import { useMutation } from "@tanstack/react-query";
import { CSRF_HEADER, CSRF_HEADER_VALUE } from "../../../../../../shared/domain/constants.ts";
import type { Attachment, AttachmentResponse } from "../../../../../../shared/schemas/attachments.ts";
import { ApiError } from "../../../../../lib/api.ts";
import { permitDetailKeys } from "./keys.ts";

/**
 * POST /api/permits/:id/attachments as multipart. XMLHttpRequest rather than the shared fetch
 * client because only XHR reports upload progress; errors keep the API's {code, message} shape.
 */
function uploadAttachment(
  permitId: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<Attachment> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/permits/${permitId}/attachments`);
    xhr.setRequestHeader(CSRF_HEADER, CSRF_HEADER_VALUE);
    xhr.setRequestHeader("accept", "application/json");
    xhr.responseType = "json";
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      const body = xhr.response as
        | (Partial<AttachmentResponse> & { code?: string; message?: string; fields?: Record<string, string> })
        | null;
      if (xhr.status >= 200 && xhr.status < 300 && body?.attachment) {
        resolve(body.attachment);
        return;
      }
      const message =
        xhr.status === 413
          ? "The file is too large."
          : (body?.fields?.file ?? body?.message ?? `Upload failed (${xhr.status}).`);
      reject(new ApiError(xhr.status, body?.code ?? `HTTP_${xhr.status}`, message, body?.fields));
    };
    // A server refusing an oversized body mid-upload may simply drop the connection.
    xhr.onerror = () =>
      reject(
        new ApiError(
          0,
          "NETWORK",
          "The upload failed. Check the file size and your connection, then try again.",
        ),
      );
    const form = new FormData();
    form.append("file", file);
    xhr.send(form);
  });
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
