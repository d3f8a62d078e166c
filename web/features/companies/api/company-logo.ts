import { useMutation } from "@tanstack/react-query";
import type { Company } from "../../../../shared/schemas/companies.ts";
import { api } from "../../../lib/api.ts";
import { meQueryKey } from "../../../lib/session.tsx";
import { companiesQueryKey } from "./get-companies.ts";

const invalidates = [companiesQueryKey, meQueryKey] as const;

/** POST /api/companies/:id/logo (multipart "file"); the server checks the bytes, not the name. */
export function useUploadLogo() {
  return useMutation({
    mutationFn: ({ companyId, file }: { companyId: string; file: File }) => {
      const body = new FormData();
      body.append("file", file);
      return api.post<Company>(`/api/companies/${companyId}/logo`, body);
    },
    meta: { invalidates, notifyError: false },
  });
}

/** DELETE /api/companies/:id/logo: back to the product logo. */
export function useRemoveLogo() {
  return useMutation({
    mutationFn: (companyId: string) => api.delete<Company>(`/api/companies/${companyId}/logo`),
    meta: { invalidates, successMessage: "Logo removed." },
  });
}
