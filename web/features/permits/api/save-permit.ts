import { useMutation } from "@tanstack/react-query";
import type { PermitDetail, PermitFormValues } from "../../../../shared/schemas/permits.ts";
import { api } from "../../../lib/api.ts";
import { afterPermitChange } from "./keys.ts";

/** POST /api/permits (id null) or PUT /api/permits/:id. */
export function savePermit(id: string | null, body: PermitFormValues) {
  return id
    ? api.put<PermitDetail>(`/api/permits/${id}`, body)
    : api.post<PermitDetail>("/api/permits", body);
}

export function useSavePermit(id: string | null) {
  return useMutation({
    mutationFn: (body: PermitFormValues) => savePermit(id, body),
    meta: {
      successMessage: id ? "Permit updated." : "Permit created.",
      // The form shows field messages and the server's message itself.
      notifyError: false,
      invalidates: afterPermitChange,
    },
  });
}
