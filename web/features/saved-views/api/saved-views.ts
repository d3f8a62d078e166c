import { useMutation, useQuery } from "@tanstack/react-query";
import type { SavedViewParams } from "../../../../shared/domain/permit-list.ts";
import type { SavedView } from "../../../../shared/schemas/saved-views.ts";
import { api } from "../../../lib/api.ts";

/** The signed-in user's saved views: their own key, so a permit change does not refetch them. */
export const savedViewKeys = { all: ["saved-views"] as const };

/** GET /api/saved-views. */
export function useSavedViews(enabled = true) {
  return useQuery({
    enabled,
    queryKey: savedViewKeys.all,
    queryFn: ({ signal }) =>
      api.get<{ views: SavedView[] }>("/api/saved-views", { signal }).then((r) => r.views),
    staleTime: 5 * 60_000,
  });
}

/** POST /api/saved-views: the dialog shows the name's error itself. */
export function useCreateSavedView() {
  return useMutation({
    mutationFn: (body: { name: string; params: SavedViewParams }) =>
      api.post<{ view: SavedView }>("/api/saved-views", body).then((r) => r.view),
    meta: { successMessage: "View saved.", notifyError: false, invalidates: [savedViewKeys.all] },
  });
}

/** DELETE /api/saved-views/:id (the bar says "View deleted." with Undo itself). */
export function useDeleteSavedView() {
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/api/saved-views/${id}`),
    meta: { invalidates: [savedViewKeys.all] },
  });
}

/** 'Undo' after a deletion: POST /api/saved-views with the view's name and filters again. */
export function useRestoreSavedView() {
  return useMutation({
    mutationFn: (view: { name: string; params: SavedViewParams }) =>
      api.post<{ view: SavedView }>("/api/saved-views", view).then((r) => r.view),
    meta: { successMessage: "View restored.", invalidates: [savedViewKeys.all] },
  });
}
