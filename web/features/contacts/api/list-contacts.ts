import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ContactKind } from "../../../../shared/domain/contacts.ts";
import type { ContactList, ContactPicker } from "../../../../shared/schemas/contacts.ts";
import { api } from "../../../lib/api.ts";

/** Every query about contacts starts with this key, so one invalidation refreshes them all. */
export const contactsQueryKey = ["contacts"] as const;

export interface ContactListParams {
  companyId: string | null;
  q: string;
  kind: ContactKind | "";
  page: number;
  pageSize: number;
}

/** GET /api/contacts: one page of the admin page's list (search, kind, company for a super-admin). */
export function useContacts(params: ContactListParams, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: [...contactsQueryKey, "list", params],
    queryFn: ({ signal }) =>
      api.get<ContactList>("/api/contacts", {
        signal,
        query: {
          company_id: params.companyId,
          q: params.q || undefined,
          kind: params.kind || undefined,
          page: params.page,
          page_size: params.pageSize,
        },
      }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/**
 * GET /api/contacts/picker: every contact of one company for a form's picker (the permit form's
 * 'Contacts'); `companyId` null: the user's own (a super-admin's form names one, else nothing).
 */
export function useContactPicker(companyId: string | null, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: [...contactsQueryKey, "picker", companyId],
    queryFn: ({ signal }) =>
      api.get<ContactPicker>("/api/contacts/picker", { signal, query: { company_id: companyId } }),
    enabled,
    staleTime: 60_000,
  });
}
