import { useMutation } from "@tanstack/react-query";
import type { Project, ProjectCreate, ProjectUpdate } from "../../../../shared/schemas/projects.ts";
import { api } from "../../../lib/api.ts";
import { projectsQueryKey } from "./list-projects.ts";

// A project write may create a client, and creating or deleting one adds or removes permits.
const touched = [projectsQueryKey, ["clients"], ["permits"]] as const;

/** POST /api/projects: also creates the company's template permits. */
export function useCreateProject() {
  return useMutation({
    mutationFn: (body: ProjectCreate) =>
      api.post<{ project: Project }>("/api/projects", body).then((r) => r.project),
    // The form and the dialog show the error themselves, next to the field when there is one.
    meta: { notifyError: false, invalidates: touched },
  });
}

/** PUT /api/projects/:id. */
export function useUpdateProject(id: string) {
  return useMutation({
    mutationFn: (body: ProjectUpdate) =>
      api.put<{ project: Project }>(`/api/projects/${id}`, body).then((r) => r.project),
    meta: { notifyError: false, invalidates: touched, successMessage: "Project saved." },
  });
}

/** DELETE /api/projects/:id: its permits go with it. */
export function useDeleteProject() {
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/api/projects/${id}`),
    meta: { notifyError: false, invalidates: touched, successMessage: "Project deleted." },
  });
}
