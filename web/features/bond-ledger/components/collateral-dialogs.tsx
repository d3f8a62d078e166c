import { useState } from "react";
import { COLLATERAL_FORMS, COLLATERAL_FORM_LABELS } from "../../../../shared/domain/bonds.ts";
import {
  BOND_LIMITS,
  CollateralInputSchema,
  CollateralReleaseInputSchema,
  type Collateral,
  type CollateralFormValues,
} from "../../../../shared/schemas/bonds.ts";
import {
  DialogField,
  MoneyField,
  NoteField,
  StepDialog,
  useStepForm,
} from "../../../components/dialog-kit/index.ts";
import { formatAmount, formatDay } from "../../../lib/format.ts";
import { useAddCollateral, useReleaseCollateral } from "../api/bond-ledger.ts";
import type { BondDialogProps } from "./ledger-step.tsx";

type CollateralValues = { form: string; amount: string; held_since: string; note: string };

/** 'Add Collateral': what the surety holds against the bond (Letter of Credit, Cash, Other). */
export function AddCollateralDialog({ permitId, ledger, open, onClose, today }: BondDialogProps) {
  const add = useAddCollateral(permitId);
  const { control, dialog } = useStepForm<CollateralValues>({
    empty: { form: "", amount: "", held_since: today, note: "" },
    schema: CollateralInputSchema,
    // The schema has checked the form's choice.
    save: (values) => add.mutateAsync(values as CollateralFormValues),
    onClose,
  });
  return (
    <StepDialog
      {...dialog}
      open={open}
      title="Add Collateral"
      intro="Collateral the surety holds against this bond. It is released with or after the bond."
      submitLabel="Save Collateral"
    >
      <DialogField
        control={control}
        name="form"
        label="Form"
        required
        options={COLLATERAL_FORMS.map((f) => ({ value: f, label: COLLATERAL_FORM_LABELS[f] }))}
        emptyLabel="Select a form"
      />
      <MoneyField control={control} name="amount" label="Amount" required currency={ledger.currency} />
      <DialogField control={control} name="held_since" label="Held Since" type="date" required />
      <NoteField control={control} name="note" label="Note" maxLength={BOND_LIMITS.note} />
    </StepDialog>
  );
}

/** 'Release Collateral': the date the surety gave it back (on or after the bond's release). */
export function ReleaseCollateralDialog({
  permitId,
  ledger,
  collateral,
  onClose,
  today,
}: Omit<BondDialogProps, "open"> & { collateral: Collateral | null }) {
  const release = useReleaseCollateral(permitId);
  // Kept while the dialog closes, so its text does not empty under the fade.
  const [shown, setShown] = useState(collateral);
  if (collateral && collateral !== shown) setShown(collateral);
  const { control, dialog } = useStepForm({
    empty: { released_on: today },
    schema: CollateralReleaseInputSchema,
    save: async (values) => {
      if (collateral) await release.mutateAsync({ id: collateral.id, ...values });
    },
    onClose,
  });
  return (
    <StepDialog
      {...dialog}
      open={!!collateral}
      title="Release Collateral"
      intro={
        shown
          ? `The surety gave back the ${COLLATERAL_FORM_LABELS[shown.form]} of ${formatAmount(shown.amount, ledger.currency)}, held since ${formatDay(shown.held_since)}.`
          : undefined
      }
      submitLabel="Release Collateral"
    >
      <DialogField control={control} name="released_on" label="Released On" type="date" required />
    </StepDialog>
  );
}
