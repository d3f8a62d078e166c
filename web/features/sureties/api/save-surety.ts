import { useMutation } from "@tanstack/react-query";
import type { Surety, SuretyFormValues } from "../../../../shared/schemas/bonds.ts";
import { api } from "../../../lib/api.ts";
import { suretiesQueryKey } from "./list-sureties.ts";

/**
 * What a surety change makes stale: the sureties, and the bonds that show its name (the Bonds page
 * and the permit pages hang under the permits feature's "permits" key).
 */
export const afterSuretyChange = [suretiesQueryKey, ["permits"]] as const;

/** POST /api/sureties. The drawer shows the error next to the field it concerns. */
export function useCreateSurety() {
  return useMutation({
    mutationFn: (body: SuretyFormValues) =>
      api.post<{ surety: Surety }>("/api/sureties", body).then((r) => r.surety),
    meta: { notifyError: false, invalidates: afterSuretyChange, successMessage: "Surety saved." },
  });
}

/** PUT /api/sureties/:id. */
export function useUpdateSurety(id: string) {
  return useMutation({
    mutationFn: (body: SuretyFormValues) =>
      api.put<{ surety: Surety }>(`/api/sureties/${id}`, body).then((r) => r.surety),
    meta: { notifyError: false, invalidates: afterSuretyChange, successMessage: "Surety saved." },
  });
}
