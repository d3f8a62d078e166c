import { useMutation } from "@tanstack/react-query";
import type { AttachmentResponse } from "../../../../shared/schemas/attachments.ts";
import type { UploadFile } from "../../../components/dialog-kit/index.ts";
import { apiUploadFile } from "../../../lib/api.ts";

/**
 * POST /api/bonds/:id/documents: a ledger entry's document (a rider, a release letter...), uploaded
 * before its entry. It is shown on the entry's row only: it archives none of the bond's files and
 * stays out of their history.
 */
export function useLedgerDocumentUpload(bondId: string): UploadFile {
  const { mutateAsync } = useMutation({
    mutationFn: async ({ file, onProgress }: { file: File; onProgress: (fraction: number) => void }) =>
      (await apiUploadFile<AttachmentResponse>(`/api/bonds/${bondId}/documents`, file, onProgress))
        .attachment,
    // The dialog explains a failed upload itself; the entry's answer brings the ledger with it.
    meta: { notifyError: false },
  });
  return (file, onProgress) => mutateAsync({ file, onProgress });
}
