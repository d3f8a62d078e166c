import { useMutation } from "@tanstack/react-query";
import type { Contact, ContactFormValues } from "../../../../shared/schemas/contacts.ts";
import { api } from "../../../lib/api.ts";
import { contactsQueryKey } from "./list-contacts.ts";

/**
 * What a contact change makes stale: the contacts, and the permit pages that show it (they hang
 * under the permits feature's "permits" key).
 */
export const afterContactChange = [contactsQueryKey, ["permits"]] as const;

/** POST /api/contacts. The dialog shows a field's error (a taken e-mail) on the field. */
export function useCreateContact() {
  return useMutation({
    mutationFn: (body: ContactFormValues) =>
      api.post<{ contact: Contact }>("/api/contacts", body).then((r) => r.contact),
    meta: { notifyError: false, invalidates: [contactsQueryKey], successMessage: "Contact added." },
  });
}

/** PUT /api/contacts/:id. */
export function useUpdateContact() {
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ContactFormValues }) =>
      api.put<{ contact: Contact }>(`/api/contacts/${id}`, body).then((r) => r.contact),
    meta: { notifyError: false, invalidates: afterContactChange, successMessage: "Contact saved." },
  });
}
