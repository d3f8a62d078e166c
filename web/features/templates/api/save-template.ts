import { useMutation, useQueryClient } from "@tanstack/react-query";
import type {
  Template,
  TemplateCreate,
  TemplatePatch,
  TemplateUpdate,
} from "../../../../shared/schemas/templates.ts";
import { api } from "../../../lib/api.ts";
import { templatesQueryKey } from "./list-templates.ts";

/** POST /api/templates. The add row shows its own errors. */
export function useCreateTemplate(companyId: string) {
  return useMutation({
    mutationFn: (body: TemplateCreate) =>
      api
        .post<{ template: Template }>("/api/templates", { ...body, company_id: companyId })
        .then((r) => r.template),
    meta: {
      notifyError: false,
      invalidates: [templatesQueryKey(companyId)],
      successMessage: "Template added.",
    },
  });
}

/** PUT /api/templates/:id (inline edit of name, agency and the expiry defaults). */
export function useUpdateTemplate(companyId: string) {
  return useMutation({
    mutationFn: ({ id, ...body }: TemplateUpdate & { id: string }) =>
      api.put<{ template: Template }>(`/api/templates/${id}`, body).then((r) => r.template),
    meta: {
      notifyError: false,
      invalidates: [templatesQueryKey(companyId)],
      successMessage: "Template saved.",
    },
  });
}

/**
 * PATCH /api/templates/:id: a switch (status or active), saved at once. The switch moves
 * immediately; if the save fails it moves back and the snackbar shows why.
 */
export function usePatchTemplate(companyId: string) {
  const queryClient = useQueryClient();
  const key = templatesQueryKey(companyId);
  return useMutation({
    mutationFn: ({ id, ...body }: TemplatePatch & { id: string }) =>
      api.patch<{ template: Template }>(`/api/templates/${id}`, body).then((r) => r.template),
    onMutate: async ({ id, ...change }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Template[]>(key);
      queryClient.setQueryData<Template[]>(key, (list) =>
        list?.map((t) => (t.id === id ? { ...t, ...change } : t)),
      );
      return { previous };
    },
    onError: (_error, _vars, context) => queryClient.setQueryData(key, context?.previous),
    meta: { invalidates: [key], successMessage: "Template saved." },
  });
}

/** DELETE /api/templates/:id. */
export function useDeleteTemplate(companyId: string) {
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/api/templates/${id}`),
    meta: {
      notifyError: false,
      invalidates: [templatesQueryKey(companyId)],
      successMessage: "Template deleted.",
    },
  });
}
