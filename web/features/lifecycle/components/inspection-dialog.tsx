import MenuItem from "@mui/material/MenuItem";
import { INSPECTION_RESULTS } from "../../../../shared/domain/lifecycle.ts";
import {
  InspectionInputSchema,
  LIFECYCLE_LIMITS,
  type InspectionFormValues,
} from "../../../../shared/schemas/lifecycle.ts";
import { DialogField, full, StepDialog, useStepForm } from "../../../components/dialog-kit/index.ts";
import { useRecordInspection } from "../api/lifecycle-steps.ts";

/** 'Record Inspection'. Under 'Days after last passed inspection' a pass moves the expiry. */
export function InspectionDialog({
  permitId,
  open,
  onClose,
  today,
  movesExpiryBy,
}: {
  permitId: string;
  open: boolean;
  onClose: () => void;
  today: string;
  movesExpiryBy: number | null;
}) {
  const record = useRecordInspection(permitId);
  const { control, onSubmit, close, error, isBusy } = useStepForm<InspectionFormValues>({
    empty: {
      inspection_type: "",
      date: today,
      result: "" as InspectionFormValues["result"],
      inspector: "",
      notes: "",
    },
    schema: InspectionInputSchema,
    save: (values) => record.mutateAsync(values),
    onClose,
  });
  return (
    <StepDialog
      open={open}
      title="Record Inspection"
      intro={
        movesExpiryBy
          ? `This permit expires ${movesExpiryBy} days after its last passed inspection: a passed one moves the expiration date.`
          : undefined
      }
      submitLabel="Save Inspection"
      isBusy={isBusy}
      error={error}
      onSubmit={onSubmit}
      onClose={close}
    >
      <DialogField
        control={control}
        name="inspection_type"
        label="Inspection Type"
        required
        maxLength={LIFECYCLE_LIMITS.shortText}
        placeholder="Footing, Framing, Final..."
        sx={full}
      />
      <DialogField
        control={control}
        name="date"
        label="Date"
        type="date"
        required
        slotProps={{ htmlInput: { max: today } }}
      />
      <DialogField control={control} name="result" label="Result" select required>
        <MenuItem value="" disabled>
          Select a result
        </MenuItem>
        {INSPECTION_RESULTS.map((r) => (
          <MenuItem key={r} value={r}>
            {r}
          </MenuItem>
        ))}
      </DialogField>
      <DialogField
        control={control}
        name="inspector"
        label="Inspector"
        maxLength={LIFECYCLE_LIMITS.shortText}
        sx={full}
      />
      <DialogField
        control={control}
        name="notes"
        label="Notes"
        multiline
        minRows={2}
        maxLength={LIFECYCLE_LIMITS.note}
        sx={full}
      />
    </StepDialog>
  );
}
