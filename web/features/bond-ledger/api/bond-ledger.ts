import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PermitDetail } from "../../../../shared/schemas/permits.ts";
import type {
  BondLedger,
  CollateralFormValues,
  CollateralReleaseInput,
  LedgerEntryFormValues,
  MaintenanceBondFormValues,
} from "../../../../shared/schemas/bonds.ts";
import { api } from "../../../lib/api.ts";
import { afterCardWrite, afterPermitChange, permitKeys } from "../../../lib/query-keys.ts";

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

/** Ledger entries that close or reopen the bond: the permit's own close date changes with them. */
const CLOSING_KINDS = new Set(["release", "cancellation", "reversal"]);

/**
 * A write on a bond. Each answers the bond's ledger as it is now: the card takes it as it is and the
 * permit's status and amount are copied onto the detail, so neither is fetched again; the lists that
 * show the bond and its audit trail are. An entry that closes or reopens the bond refreshes the
 * detail (its close date) and the lifecycle (whose actions end with it). The dialogs show field errors and the server's message themselves; the
 * success message goes to the snackbar.
 */
function useBondStep<B>(permitId: string, successMessage: string, call: (body: B) => Promise<BondLedger>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (ledger, body) => {
      client.setQueryData(permitKeys.bondLedger(permitId), ledger);
      client.setQueryData<PermitDetail>(permitKeys.detail(permitId), (detail) =>
        detail ? { ...detail, bond_status: ledger.status, current_amount: ledger.current_amount } : detail,
      );
      const kind = (body as { kind?: string } | undefined)?.kind;
      if (kind && CLOSING_KINDS.has(kind)) {
        // Closed or reopened: the detail's close date, and the lifecycle's actions (none once closed).
        void client.invalidateQueries({ queryKey: permitKeys.detail(permitId), exact: true });
        void client.invalidateQueries({ queryKey: permitKeys.lifecycle(permitId) });
      }
    },
    meta: { successMessage, notifyError: false, invalidates: afterCardWrite(permitId) },
  });
}

/** POST /api/bonds/:id/ledger: 'Add Rider', 'Reduce Bond', 'Release Bond', 'Cancel Bond', 'Record Claim', 'Reverse'. */
export const useAddLedgerEntry = (permitId: string, successMessage: string) =>
  useBondStep(permitId, successMessage, (body: LedgerEntryFormValues) =>
    api.post<BondLedger>(`/api/bonds/${permitId}/ledger`, body),
  );

/** POST /api/bonds/:id/maintenance-bond: 'Start Maintenance Bond' on a Performance bond. */
export const useStartMaintenanceBond = (permitId: string) =>
  // Answers the new bond's ledger, not this one's: this bond's link and every list change.
  useMutation({
    mutationFn: (body: MaintenanceBondFormValues) =>
      api.post<BondLedger>(`/api/bonds/${permitId}/maintenance-bond`, body),
    meta: { successMessage: "Maintenance bond started.", notifyError: false, invalidates: afterPermitChange },
  });

/** POST /api/bonds/:id/collateral: 'Add Collateral'. */
export const useAddCollateral = (permitId: string) =>
  useBondStep(permitId, "Collateral added.", (body: CollateralFormValues) =>
    api.post<BondLedger>(`/api/bonds/${permitId}/collateral`, body),
  );

/** PATCH /api/bonds/:id/collateral/:cid: 'Release Collateral'. */
export const useReleaseCollateral = (permitId: string) =>
  useBondStep(permitId, "Collateral released.", ({ id, ...body }: CollateralReleaseInput & { id: string }) =>
    api.patch<BondLedger>(`/api/bonds/${permitId}/collateral/${id}`, body),
  );
