import { useQuery } from "@tanstack/react-query";
import type { Template } from "../../../../shared/schemas/templates.ts";
import { api } from "../../../lib/api.ts";

export const templatesQueryKey = (companyId: string) => ["templates", companyId] as const;

/** GET /api/templates?company_id=: one company's templates, by name. */
export function useTemplates(companyId: string) {
  return useQuery({
    queryKey: templatesQueryKey(companyId),
    queryFn: ({ signal }) =>
      api
        .get<{ templates: Template[] }>("/api/templates", { signal, query: { company_id: companyId } })
        .then((r) => r.templates),
    enabled: !!companyId,
  });
}
