import { useMutation } from "@tanstack/react-query";
import type { ApiKeyCreated, ApiKeyFormValues } from "../../../../shared/schemas/api-keys.ts";
import { api } from "../../../lib/api.ts";
import { apiKeysQueryKey } from "./list-api-keys.ts";

/** POST /api/api-keys: the answer holds the key, this once. The dialog shows a field's error on the field. */
export function useCreateApiKey() {
  return useMutation({
    mutationFn: (body: ApiKeyFormValues) => api.post<ApiKeyCreated>("/api/api-keys", body),
    // The key shown in the next dialog is the feedback.
    meta: { notifyError: false, invalidates: [apiKeysQueryKey] },
  });
}
