import { useMutation } from "@tanstack/react-query";
import type {
  CloseFormValues,
  ExtensionFormValues,
  InspectionFormValues,
  Lifecycle,
  RenewalFormValues,
} from "../../../../shared/schemas/lifecycle.ts";
import { api } from "../../../lib/api.ts";
import { afterPermitChange } from "../../../lib/query-keys.ts";

/**
 * The lifecycle steps of a permit (POST /api/permits/:id/renewals, /extensions, /inspections,
 * /acknowledgement, /close). Each answers the new lifecycle and changes the permit's dates, so each
 * refreshes the permit, its cards (audit trail, reminders) and the lists that show it.
 */
function useLifecycleStep<B>(permitId: string, path: string, successMessage: string, notifyError = false) {
  return useMutation({
    mutationFn: (body: B) => api.post<Lifecycle>(`/api/permits/${permitId}/${path}`, body ?? {}),
    meta: { successMessage, notifyError, invalidates: afterPermitChange },
  });
}

/** 'Save Renewal'. The dialog shows field errors and the server's message itself. */
export const useRenewPermit = (permitId: string) =>
  useLifecycleStep<RenewalFormValues>(permitId, "renewals", "Permit renewed.");

/** 'Save Extension'. */
export const useExtendPermit = (permitId: string) =>
  useLifecycleStep<ExtensionFormValues>(permitId, "extensions", "Permit extended.");

/** 'Save Inspection'. */
export const useRecordInspection = (permitId: string) =>
  useLifecycleStep<InspectionFormValues>(permitId, "inspections", "Inspection recorded.");

/** 'Close Permit'. */
export const useClosePermit = (permitId: string) =>
  useLifecycleStep<CloseFormValues>(permitId, "close", "Permit closed.");

/** 'Acknowledge': one click, no dialog, so a failure goes to the snackbar. */
export const useAcknowledgePermit = (permitId: string) =>
  useLifecycleStep<Record<string, never>>(permitId, "acknowledgement", "Acknowledged.", true);
