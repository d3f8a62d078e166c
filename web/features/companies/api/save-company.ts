import { useMutation } from "@tanstack/react-query";
import type { Company, CompanyInputParsed } from "../../../../shared/schemas/companies.ts";
import { api } from "../../../lib/api.ts";
import { scopeContentsKeys } from "../../../lib/query-keys.ts";
import { meQueryKey } from "../../../lib/session.tsx";
import { companiesQueryKey } from "./get-companies.ts";

// The header and footer show the user's own company from /api/me; a new company ticks the
// getting-started step (issue 25).
const invalidates = [companiesQueryKey, meQueryKey, ...scopeContentsKeys] as const;

/** POST /api/companies. The form shows errors itself (field messages, the spec's fallback text). */
export function useCreateCompany() {
  return useMutation({
    mutationFn: (input: CompanyInputParsed) => api.post<Company>("/api/companies", input),
    meta: { invalidates, notifyError: false },
  });
}

/** PUT /api/companies/:id. */
export function useUpdateCompany(id: string) {
  return useMutation({
    mutationFn: (input: CompanyInputParsed) => api.put<Company>(`/api/companies/${id}`, input),
    meta: { invalidates, notifyError: false },
  });
}
