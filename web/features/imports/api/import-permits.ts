import { useMutation } from "@tanstack/react-query";
import type { ImportResult } from "../../../../shared/schemas/imports.ts";
import { apiUpload } from "../../../lib/api.ts";

export interface ImportRequest {
  file: File;
  companyId: string | null;
  dryRun: boolean;
  onProgress: (fraction: number) => void;
}

/** POST /api/imports/permits (multipart: company_id, then file); a dry run changes nothing. */
export function useImportPermits() {
  return useMutation({
    mutationFn: ({ file, companyId, dryRun, onProgress }: ImportRequest) => {
      const form = new FormData();
      if (companyId) form.append("company_id", companyId);
      form.append("file", file);
      return apiUpload<ImportResult>("/api/imports/permits", form, {
        query: { dry_run: dryRun ? "true" : undefined },
        onProgress,
      });
    },
    // The page shows the error in place, next to the file.
    meta: { notifyError: false, invalidates: [["permits"], ["projects"], ["clients"]] },
  });
}

export const TEMPLATE_URL = "/api/imports/permits/template.csv";
