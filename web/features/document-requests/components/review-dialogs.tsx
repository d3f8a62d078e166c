import { z } from "zod";
import { REJECT_REASON_MAX } from "../../../../shared/domain/document-requests.ts";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { NoteField, StepDialog, useStepForm } from "../../../components/dialog-kit/index.ts";
import { errorMessage } from "../../../lib/api.ts";
import { useRejectRequest, useRevokeRequest } from "../api/request-writes.ts";
import type { RequestView } from "../api/types.ts";

const RejectSchema = z.object({
  reason: z
    .string()
    .trim()
    .min(1, { message: "Say what is wrong, so the contact can fix it" })
    .max(REJECT_REASON_MAX, { message: `Reason must be at most ${REJECT_REASON_MAX} characters` }),
});

/** 'Reject' asks why: the party reads the reason on the link's page and may upload again. */
export function RejectDialog({
  permitId,
  target,
  onClose,
}: {
  permitId: string;
  target: { request: RequestView; submissionId: string } | null;
  onClose: () => void;
}) {
  const reject = useRejectRequest(permitId);
  const { control, dialog } = useStepForm<{ reason: string }>({
    empty: { reason: "" },
    schema: RejectSchema,
    save: async ({ reason }) => {
      if (!target) return;
      await reject.mutateAsync({
        id: target.request.id,
        submissionId: target.submissionId,
        reason: reason.trim(),
      });
    },
    onClose,
  });
  const party = target?.request.partyName ?? "The contact";
  return (
    <StepDialog
      {...dialog}
      open={!!target}
      title="Reject Submission"
      intro={`${party} will see this reason on the request's page and can upload again. Nothing changes on the permit.`}
      submitLabel="Reject"
    >
      <NoteField control={control} name="reason" label="Reason" required maxLength={REJECT_REASON_MAX} />
    </StepDialog>
  );
}

/** 'Revoke': the link stops working; the party's page says the request was withdrawn. */
export function RevokeDialog({
  permitId,
  target,
  onClose,
}: {
  permitId: string;
  target: RequestView | null;
  onClose: () => void;
}) {
  const revoke = useRevokeRequest(permitId);
  const close = () => {
    revoke.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={!!target}
      title="Revoke Request"
      message={`Revoke the request for ${target ? target.title || target.documentLabel : ""} sent to ${target?.partyName ?? "the contact"}?`}
      details="The link in their e-mail stops working, and its page says the request was withdrawn."
      confirmLabel="Revoke"
      isBusy={revoke.isPending}
      error={revoke.isError ? errorMessage(revoke.error) : undefined}
      onConfirm={() => target && revoke.mutate(target.id, { onSuccess: close })}
      onClose={close}
    />
  );
}
