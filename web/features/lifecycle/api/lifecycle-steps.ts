import { useMutation, useQueryClient } from "@tanstack/react-query";
import type {
  CloseFormValues,
  ExtensionFormValues,
  InspectionFormValues,
  Lifecycle,
  RenewalFormValues,
} from "../../../../shared/schemas/lifecycle.ts";
import type { PermitDetail } from "../../../../shared/schemas/permits.ts";
import { api } from "../../../lib/api.ts";
import { formatDay } from "../../../lib/format.ts";
import { afterCardWrite, permitKeys } from "../../../lib/query-keys.ts";

/** The permit's detail as a lifecycle step left it: the step's answer carries every field it may change. */
export const withLifecycle = (detail: PermitDetail, l: Lifecycle): PermitDetail => ({
  ...detail,
  permit_number: l.permit_number,
  issue_date: l.issue_date,
  expiration_date: l.expiration_date,
  renew_by_date: l.renew_by_date,
  term_no: l.term_no,
  display_status: l.display_status,
  acknowledged: l.acknowledged,
  close_date: l.closed?.close_date ?? null,
  final_status: l.closed?.final_status ?? null,
});

/**
 * The lifecycle steps of a permit (POST /api/permits/:id/renewals, /extensions, /inspections,
 * /acknowledgement, /close). Each answers the new lifecycle: the card takes it and the detail gets
 * the permit's changed fields copied on, so neither is fetched again; the lists that show the
 * permit, its audit trail and its reminders (a new date cancels those waiting) are.
 */
function useLifecycleStep<B>(
  permitId: string,
  path: string,
  successMessage: string | ((lifecycle: Lifecycle) => string),
  notifyError = false,
  alsoStale: readonly (readonly unknown[])[] = [],
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: B) => api.post<Lifecycle>(`/api/permits/${permitId}/${path}`, body ?? {}),
    onSuccess: (lifecycle) => {
      client.setQueryData(permitKeys.lifecycle(permitId), lifecycle);
      client.setQueryData<PermitDetail>(permitKeys.detail(permitId), (detail) =>
        detail ? withLifecycle(detail, lifecycle) : detail,
      );
    },
    meta: {
      successMessage: successMessage as string | ((data: unknown) => string),
      notifyError,
      invalidates: [...afterCardWrite(permitId), permitKeys.reminders(permitId), ...alsoStale],
    },
  });
}

/** 'Save Renewal'. The dialog shows field errors and the server's message itself. */
export const useRenewPermit = (permitId: string) =>
  useLifecycleStep<RenewalFormValues>(
    permitId,
    "renewals",
    (l) =>
      `Renewed: term ${l.term_no}${l.expiration_date ? `, expires ${formatDay(l.expiration_date)}` : ""}`,
  );

/** 'Save Extension'. */
export const useExtendPermit = (permitId: string) =>
  useLifecycleStep<ExtensionFormValues>(
    permitId,
    "extensions",
    (l) =>
      `Extended: term ${l.term_no}${l.expiration_date ? `, expires ${formatDay(l.expiration_date)}` : ""}`,
  );

/** 'Save Inspection'. */
export const useRecordInspection = (permitId: string) =>
  useLifecycleStep<InspectionFormValues>(permitId, "inspections", "Inspection recorded.");

/**
 * 'Close Permit'. Issue 29: `closeOpenTasks` confirms that the permit's open tasks end as Not
 * Applicable (without it, a permit with open tasks answers 409 OPEN_TASKS); the Conditions card
 * is read again.
 */
export const useClosePermit = (permitId: string) =>
  useLifecycleStep<CloseFormValues & { closeOpenTasks?: boolean }>(
    permitId,
    "close",
    "Permit closed.",
    false,
    [[...permitKeys.detail(permitId), "conditions"]],
  );

/** 'Acknowledge': one click, no dialog, so a failure goes to the snackbar. */
export const useAcknowledgePermit = (permitId: string) =>
  useLifecycleStep<Record<string, never>>(permitId, "acknowledgement", "Acknowledged.", true);
