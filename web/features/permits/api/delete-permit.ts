import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";
import { afterPermitChange } from "./keys.ts";

/** DELETE /api/permits/:id. */
export function useDeletePermit() {
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/api/permits/${id}`),
    meta: {
      successMessage: "Permit deleted.",
      // The list reports 'Delete failed: ' + message itself (spec section 8).
      notifyError: false,
      invalidates: afterPermitChange,
    },
  });
}
