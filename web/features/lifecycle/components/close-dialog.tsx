import { FINAL_STATUSES } from "../../../../shared/domain/lifecycle.ts";
import { CloseInputSchema, type CloseFormValues } from "../../../../shared/schemas/lifecycle.ts";
import { DialogField, StepDialog, useStepForm } from "../../../components/dialog-kit/index.ts";
import { useClosePermit } from "../api/lifecycle-steps.ts";

/** 'Close Permit': the close date and how it ended; reminders stop and the history turns read-only. */
export function CloseDialog({
  permitId,
  open,
  onClose,
  today,
}: {
  permitId: string;
  open: boolean;
  onClose: () => void;
  today: string;
}) {
  const closePermit = useClosePermit(permitId);
  const { control, dialog } = useStepForm<CloseFormValues>({
    empty: { close_date: today, final_status: "" as CloseFormValues["final_status"] },
    schema: CloseInputSchema,
    save: (values) => closePermit.mutateAsync(values),
    onClose,
  });
  return (
    <StepDialog
      {...dialog}
      open={open}
      title="Close Permit"
      intro="A closed permit gets no more reminders, and its terms and inspections become read-only."
      submitLabel="Close Permit"
    >
      <DialogField control={control} name="close_date" label="Close Date" type="date" required />
      <DialogField
        control={control}
        name="final_status"
        label="Final Status"
        required
        options={FINAL_STATUSES}
        emptyLabel="Select a status"
      />
    </StepDialog>
  );
}
