import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProjectStatus } from "../../../../shared/domain/statuses.ts";
import type { Project } from "../../../../shared/schemas/projects.ts";
import { api } from "../../../lib/api.ts";
import { projectsQueryKey } from "./list-projects.ts";

/**
 * PATCH /api/projects/:id/status, saved as soon as a status is picked. The saved project goes
 * straight into the cached lists, so the select does not flick back while they refetch; on
 * failure the cache is untouched and the snackbar shows the server's message.
 */
export function useUpdateProjectStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: ProjectStatus }) =>
      api.patch<{ project: Project }>(`/api/projects/${id}/status`, { status }).then((r) => r.project),
    onSuccess: (project) => {
      queryClient.setQueriesData<{ projects: Project[] }>(
        { queryKey: [...projectsQueryKey, "list"] },
        (data) => (data ? { projects: data.projects.map((p) => (p.id === project.id ? project : p)) } : data),
      );
      queryClient.setQueriesData<{ project: Project }>(
        { queryKey: [...projectsQueryKey, "dashboard", project.id] },
        (data) => (data ? { ...data, project } : data),
      );
    },
    meta: { invalidates: [projectsQueryKey], successMessage: "Project status saved." },
  });
}
