import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";
import { afterSuretyChange } from "./save-surety.ts";

/** DELETE /api/sureties/:id; refused (409, with the reason) while a bond names the surety. */
export function useDeleteSurety() {
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/api/sureties/${id}`),
    // The confirmation shows the server's message (the 409 of a surety in use) in place.
    meta: { notifyError: false, invalidates: afterSuretyChange, successMessage: "Surety deleted." },
  });
}
