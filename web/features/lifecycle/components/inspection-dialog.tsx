import { INSPECTION_RESULTS } from "../../../../shared/domain/lifecycle.ts";
import {
  InspectionInputSchema,
  LIFECYCLE_LIMITS,
  type InspectionFormValues,
} from "../../../../shared/schemas/lifecycle.ts";
import {
  DialogField,
  full,
  InternalField,
  NoteField,
  StepDialog,
  useStepForm,
} from "../../../components/dialog-kit/index.ts";
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
  const { control, dialog } = useStepForm<InspectionFormValues>({
    empty: {
      inspection_type: "",
      date: today,
      result: "" as InspectionFormValues["result"],
      inspector: "",
      notes: "",
      notes_internal: false,
    },
    schema: InspectionInputSchema,
    save: (values) => record.mutateAsync(values),
    onClose,
  });
  return (
    <StepDialog
      {...dialog}
      open={open}
      title="Record Inspection"
      intro={
        movesExpiryBy
          ? `This permit expires ${movesExpiryBy} days after its last passed inspection: a passed one moves the expiration date.`
          : undefined
      }
      submitLabel="Save Inspection"
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
      <DialogField
        control={control}
        name="result"
        label="Result"
        required
        options={INSPECTION_RESULTS}
        emptyLabel="Select a result"
      />
      <DialogField
        control={control}
        name="inspector"
        label="Inspector"
        maxLength={LIFECYCLE_LIMITS.shortText}
        sx={full}
      />
      <NoteField control={control} name="notes" label="Notes" maxLength={LIFECYCLE_LIMITS.note} />
      <InternalField control={control} name="notes_internal" of="Notes" sx={full} />
    </StepDialog>
  );
}
