import { useState } from "react";
import { FINAL_STATUSES } from "../../../../shared/domain/lifecycle.ts";
import { CloseInputSchema, type CloseFormValues } from "../../../../shared/schemas/lifecycle.ts";
import { DialogField, StepDialog, useStepForm } from "../../../components/dialog-kit/index.ts";
import { isApiError } from "../../../lib/api.ts";
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
  // Issue 29: the server's "This permit has N open tasks. Closing it marks them Not Applicable."
  // once it answered OPEN_TASKS; the next 'Close Permit' confirms it.
  const [openTasks, setOpenTasks] = useState<string | null>(null);
  const { control, dialog } = useStepForm<CloseFormValues>({
    empty: { close_date: today, final_status: "" as CloseFormValues["final_status"] },
    schema: CloseInputSchema,
    save: async (values) => {
      try {
        await closePermit.mutateAsync(openTasks ? { ...values, closeOpenTasks: true } : values);
      } catch (error) {
        if (isApiError(error) && error.code === "OPEN_TASKS") setOpenTasks(error.message);
        throw error;
      }
    },
    onClose: () => {
      setOpenTasks(null);
      onClose();
    },
  });
  return (
    <StepDialog
      {...dialog}
      open={open}
      title="Close Permit"
      intro="A closed permit gets no more reminders, and its terms and inspections become read-only."
      submitLabel={openTasks ? "Close Permit and Its Tasks" : "Close Permit"}
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
