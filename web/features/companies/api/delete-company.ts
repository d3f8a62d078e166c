import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";
import { companiesQueryKey } from "./get-companies.ts";

/** DELETE /api/companies/:id: the company and everything it owns. The dialog shows a failure. */
export function useDeleteCompany() {
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/api/companies/${id}`),
    meta: {
      invalidates: [companiesQueryKey, ["users"]],
      successMessage: "Company deleted.",
      notifyError: false,
    },
  });
}
