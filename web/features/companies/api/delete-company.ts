import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";
import { scopeContentsKeys } from "../../../lib/query-keys.ts";
import { companiesQueryKey } from "./get-companies.ts";

/** DELETE /api/companies/:id: the company and everything it owns. The dialog shows a failure. */
export function useDeleteCompany() {
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/api/companies/${id}`),
    meta: {
      invalidates: [
        companiesQueryKey,
        ["users"],
        ["permits"],
        ["projects"],
        ["clients"],
        ...scopeContentsKeys,
      ],
      successMessage: "Company deleted.",
      notifyError: false,
    },
  });
}
