import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";
import { afterContactChange } from "./save-contact.ts";

/** DELETE /api/contacts/:id: the permits listing the contact lose it. */
export function useDeleteContact() {
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/api/contacts/${id}`),
    // The confirmation shows a failure in place.
    meta: { notifyError: false, invalidates: afterContactChange, successMessage: "Contact deleted." },
  });
}
