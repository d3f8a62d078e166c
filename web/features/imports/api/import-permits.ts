import { useMutation } from "@tanstack/react-query";
import type { ImportResult } from "../../../../shared/schemas/imports.ts";
import { apiUpload } from "../../../lib/api.ts";

export interface ImportRequest {
  file: File;
  /** Issue 29: the optional second file, the permits' conditions (one row per condition). */
  conditionsFile: File | null;
  companyId: string | null;
  dryRun: boolean;
  onProgress: (fraction: number) => void;
}

/**
 * POST /api/imports/permits (multipart: company_id, then file, then the optional conditions file);
 * a dry run changes nothing.
 */
export function useImportPermits() {
  return useMutation({
    mutationFn: ({ file, conditionsFile, companyId, dryRun, onProgress }: ImportRequest) => {
      const form = new FormData();
      if (companyId) form.append("company_id", companyId);
      form.append("file", file);
      if (conditionsFile) form.append("conditions", conditionsFile);
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
