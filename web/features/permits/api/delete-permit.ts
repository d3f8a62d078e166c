import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, isApiError } from "../../../lib/api.ts";
import { afterPermitChange, permitKeys } from "./keys.ts";

/** DELETE /api/permits/:id. */
export function useDeletePermit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/api/permits/${id}`),
    // Already gone (deleted elsewhere): the list is stale, so refresh it under the message.
    onError: (error) => {
      if (isApiError(error) && error.status === 404)
        void queryClient.invalidateQueries({ queryKey: permitKeys.all });
    },
    meta: {
      successMessage: "Permit deleted.",
      // The list reports 'Delete failed: ' + message itself (spec section 8).
      notifyError: false,
      invalidates: afterPermitChange,
    },
  });
}
