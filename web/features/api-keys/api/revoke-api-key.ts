import { useMutation } from "@tanstack/react-query";
import type { ApiKey } from "../../../../shared/schemas/api-keys.ts";
import { api } from "../../../lib/api.ts";
import { apiKeysQueryKey } from "./list-api-keys.ts";

/** POST /api/api-keys/:id/revoke: the key answers 401 from then on. */
export function useRevokeApiKey() {
  return useMutation({
    mutationFn: (id: string) =>
      api.post<{ api_key: ApiKey }>(`/api/api-keys/${id}/revoke`).then((r) => r.api_key),
    // The confirmation shows a failure in place.
    meta: { notifyError: false, invalidates: [apiKeysQueryKey], successMessage: "API key revoked." },
  });
}
