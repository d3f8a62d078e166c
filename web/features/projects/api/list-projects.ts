import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ProjectList, ProjectSort } from "../../../../shared/schemas/projects.ts";
import { api } from "../../../lib/api.ts";
import { projectsQueryKey } from "../../../lib/query-keys.ts";

// The prefix lives in lib/query-keys.ts: a permit change (another feature) invalidates it too.
export { projectsQueryKey };

export interface ProjectListParams {
  sort: ProjectSort;
  dir: "asc" | "desc";
  /** A super-admin's company filter; "" for every company. */
  companyId: string;
}

/** GET /api/projects: sorted on the server, with permit counts. */
export function useProjects(params: ProjectListParams) {
  return useQuery({
    queryKey: [...projectsQueryKey, "list", params],
    queryFn: ({ signal }) =>
      api.get<ProjectList>("/api/projects", {
        signal,
        query: { sort: params.sort, dir: params.dir, company_id: params.companyId },
      }),
    // Re-sorting keeps the current rows on screen until the new order arrives.
    placeholderData: keepPreviousData,
  });
}
