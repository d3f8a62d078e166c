import { useQuery } from "@tanstack/react-query";
import type { Project } from "../../../../shared/schemas/projects.ts";
import { api } from "../../../lib/api.ts";
import { projectsQueryKey } from "./list-projects.ts";

/** GET /api/projects/:id: the project the edit form opens. */
export function useProject(id: string | undefined) {
  return useQuery({
    queryKey: [...projectsQueryKey, "detail", id],
    queryFn: ({ signal }) =>
      api.get<{ project: Project }>(`/api/projects/${id}`, { signal }).then((r) => r.project),
    enabled: !!id,
  });
}
