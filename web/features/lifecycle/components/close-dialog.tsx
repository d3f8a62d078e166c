import { useState } from "react";
import Alert from "@mui/material/Alert";
import { FINAL_STATUSES } from "../../../../shared/domain/lifecycle.ts";
import { CloseInputSchema, type CloseFormValues } from "../../../../shared/schemas/lifecycle.ts";
import { DialogField, StepDialog, full, useStepForm } from "../../../components/dialog-kit/index.ts";
import { isApiError } from "../../../lib/api.ts";
import { useClosePermit } from "../api/lifecycle-steps.ts";

/** 'Close Permit': the close date and how it ended; reminders stop and the history turns read-only. */
export function CloseDialog({
  permitId,
  open,
  onClose,
  today,
  openTasks,
}: {
  permitId: string;
  open: boolean;
  onClose: () => void;
  today: string;
  /** Issue 29: the permit's open condition tasks (the lifecycle's open_tasks). */
  openTasks: number;
}) {
  const closePermit = useClosePermit(permitId);
  // Issue 29: a permit with open tasks says so here, and 'Close Permit' confirms closing them
  // (closeOpenTasks). Tasks made since the page loaded: the server's OPEN_TASKS answer says so, and
  // the next 'Close Permit' confirms.
  const [refused, setRefused] = useState<string | null>(null);
  const warning =
    refused ??
    (openTasks > 0
      ? `This permit has ${openTasks} open ${openTasks === 1 ? "task" : "tasks"}. Closing it marks them Not Applicable.`
      : null);
  const { control, dialog } = useStepForm<CloseFormValues>({
    empty: { close_date: today, final_status: "" as CloseFormValues["final_status"] },
    schema: CloseInputSchema,
    save: async (values) => {
      try {
        await closePermit.mutateAsync(warning ? { ...values, closeOpenTasks: true } : values);
      } catch (error) {
        if (isApiError(error) && error.code === "OPEN_TASKS") {
          setRefused(error.message);
          return Promise.reject(new Error(`${error.message} Press Close Permit again to close them.`));
        }
        throw error;
      }
    },
    onClose: () => {
      setRefused(null);
      onClose();
    },
  });
  return (
    <StepDialog
      {...dialog}
      open={open}
      title="Close Permit"
      intro="A closed permit gets no more reminders, and its terms and inspections become read-only."
      submitLabel="Close Permit"
    >
      {warning && !refused ? (
        <Alert severity="warning" sx={full}>
          {warning}
        </Alert>
      ) : null}
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
