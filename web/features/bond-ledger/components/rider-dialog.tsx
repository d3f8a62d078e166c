import { useWatch } from "react-hook-form";
import type { LedgerStep } from "../../../../shared/domain/bonds.ts";
import { BOND_LIMITS, RiderInputSchema } from "../../../../shared/schemas/bonds.ts";
import {
  ChoiceField,
  DialogField,
  DocumentPicker,
  MoneyField,
  NoteField,
  StepDialog,
} from "../../../components/dialog-kit/index.ts";
import type { FieldOf } from "../../../lib/form-errors.ts";
import { formatAmount } from "../../../lib/format.ts";
import { clean, isMoney, Preview, useLedgerStep, type BondDialogProps } from "./ledger-step.tsx";

type RiderValues = {
  direction: "increase" | "decrease";
  amount: string;
  effective_date: string;
  reason: string;
};

const riderChange = (v: RiderValues) =>
  v.direction === "decrease" && clean(v.amount) && !clean(v.amount).startsWith("-")
    ? `-${clean(v.amount)}`
    : clean(v.amount);

/** 'Add Rider': an increase or a decrease of the bond amount, from a date, and why. */
export function RiderDialog({ permitId, ledger, open, onClose, today }: BondDialogProps) {
  const empty: RiderValues = { direction: "increase", amount: "", effective_date: today, reason: "" };
  const fieldOf: FieldOf<RiderValues> = (f) =>
    f === "change" ? "amount" : f === "effective_date" || f === "reason" ? f : null;
  const { control, document, dialog } = useLedgerStep({
    permitId,
    successMessage: "Rider added.",
    empty,
    schema: RiderInputSchema,
    toBody: (v, documentId) => ({
      kind: "rider",
      change: riderChange(v),
      effective_date: v.effective_date,
      reason: v.reason,
      document_id: documentId,
    }),
    fieldOf,
    onClose,
  });
  const values = useWatch({ control }) as RiderValues;
  const step: LedgerStep | null = isMoney(values.amount ?? "")
    ? { kind: "rider", change: riderChange(values) }
    : null;
  return (
    <StepDialog
      {...dialog}
      open={open}
      title="Add Rider"
      intro={`Changes the bond amount from ${formatAmount(ledger.current_amount, ledger.currency) ?? "—"} by a rider the surety issued.`}
      submitLabel="Save Rider"
    >
      <ChoiceField
        control={control}
        name="direction"
        label="Change"
        options={[
          { value: "increase", label: "Increase" },
          { value: "decrease", label: "Decrease" },
        ]}
      />
      <MoneyField control={control} name="amount" label="Amount" required currency={ledger.currency} />
      <DialogField control={control} name="effective_date" label="Effective Date" type="date" required />
      <NoteField control={control} name="reason" label="Reason" required maxLength={BOND_LIMITS.reason} />
      <Preview ledger={ledger} step={step} />
      <DocumentPicker
        document={document}
        label="Rider document"
        hint="Optional: the rider; it becomes the bond's current attachment."
        disabled={dialog.isBusy}
      />
    </StepDialog>
  );
}
