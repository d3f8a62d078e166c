import { useMutation, useQuery } from "@tanstack/react-query";
import type {
  BondLedger,
  CollateralFormValues,
  CollateralReleaseInput,
  LedgerEntryFormValues,
  MaintenanceBondFormValues,
} from "../../../../shared/schemas/bonds.ts";
import { api } from "../../../lib/api.ts";
import { afterPermitChange, permitKeys } from "../../../lib/query-keys.ts";

/**
 * GET /api/bonds/:id/ledger: status, amounts, the entries in order, collateral, links, what the
 * user may do. A bond's ledger (issue 12) hangs under the permit's detail key, so an edit of the
 * bond (its amount, its surety) refreshes it too.
 */
export function useBondLedger(permitId: string, enabled = true) {
  return useQuery({
    enabled,
    queryKey: permitKeys.bondLedger(permitId),
    queryFn: ({ signal }) => api.get<BondLedger>(`/api/bonds/${permitId}/ledger`, { signal }),
  });
}

/**
 * A write on a bond: each changes its status or amounts, its audit trail and attachments, the
 * lists that show it (All Permits, Bonds, a project's dashboard). The dialogs show field errors and
 * the server's message themselves; the success message goes to the snackbar.
 */
function useBondStep<B>(successMessage: string, call: (body: B) => Promise<unknown>) {
  return useMutation({
    mutationFn: call,
    meta: { successMessage, notifyError: false, invalidates: afterPermitChange },
  });
}

/** POST /api/bonds/:id/ledger: 'Add Rider', 'Reduce Bond', 'Release Bond', 'Cancel Bond', 'Record Claim', 'Reverse'. */
export const useAddLedgerEntry = (permitId: string, successMessage: string) =>
  useBondStep(successMessage, (body: LedgerEntryFormValues) =>
    api.post<BondLedger>(`/api/bonds/${permitId}/ledger`, body),
  );

/** POST /api/bonds/:id/maintenance-bond: 'Start Maintenance Bond' on a Performance bond. */
export const useStartMaintenanceBond = (permitId: string) =>
  useBondStep("Maintenance bond started.", (body: MaintenanceBondFormValues) =>
    api.post<BondLedger>(`/api/bonds/${permitId}/maintenance-bond`, body),
  );

/** POST /api/bonds/:id/collateral: 'Add Collateral'. */
export const useAddCollateral = (permitId: string) =>
  useBondStep("Collateral added.", (body: CollateralFormValues) =>
    api.post<BondLedger>(`/api/bonds/${permitId}/collateral`, body),
  );

/** PATCH /api/bonds/:id/collateral/:cid: 'Release Collateral'. */
export const useReleaseCollateral = (permitId: string) =>
  useBondStep("Collateral released.", ({ id, ...body }: CollateralReleaseInput & { id: string }) =>
    api.patch<BondLedger>(`/api/bonds/${permitId}/collateral/${id}`, body),
  );
