import { useQuery } from "@tanstack/react-query";
import type { ProjectDashboard } from "../../../../shared/schemas/projects.ts";
import { api } from "../../../lib/api.ts";
import { projectsQueryKey } from "./list-projects.ts";

/** GET /api/projects/:id/dashboard: the project, its permits, their categories and summary. */
export function useProjectDashboard(id: string | undefined) {
  return useQuery({
    queryKey: [...projectsQueryKey, "dashboard", id],
    queryFn: ({ signal }) => api.get<ProjectDashboard>(`/api/projects/${id}/dashboard`, { signal }),
    enabled: !!id,
  });
}
