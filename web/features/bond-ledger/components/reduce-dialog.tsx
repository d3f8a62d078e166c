import { useWatch } from "react-hook-form";
import InputAdornment from "@mui/material/InputAdornment";
import { PERCENT_PATTERN, type LedgerStep } from "../../../../shared/domain/bonds.ts";
import { BOND_LIMITS, ReductionInputSchema } from "../../../../shared/schemas/bonds.ts";
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

type ReductionValues = {
  by: "amount" | "percent";
  amount: string;
  percent: string;
  effective_date: string;
  obligee_acceptance_date: string;
  reason: string;
};

const reductionStep = (v: ReductionValues): LedgerStep | null => {
  const percent = clean(v.percent ?? "")
    .replace(/%$/, "")
    .trim();
  if (v.by === "percent")
    return PERCENT_PATTERN.test(percent) && Number(percent) > 0 && Number(percent) < 100
      ? { kind: "reduction", amount: null, percent }
      : null;
  return isMoney(v.amount ?? "") ? { kind: "reduction", amount: clean(v.amount), percent: null } : null;
};

/** 'Reduce Bond': by an amount or a percent of the current amount, once the obligee accepted it. */
export function ReduceDialog({ permitId, ledger, open, onClose, today }: BondDialogProps) {
  const empty: ReductionValues = {
    by: "percent",
    amount: "",
    percent: "",
    effective_date: today,
    obligee_acceptance_date: "",
    reason: "",
  };
  const fieldOf: FieldOf<ReductionValues> = (f, v) =>
    f === "amount" || f === "percent"
      ? v.by === "percent"
        ? "percent"
        : "amount"
      : ((["effective_date", "obligee_acceptance_date", "reason"] as const).find((n) => n === f) ?? null);
  const { control, document, dialog } = useLedgerStep({
    permitId,
    successMessage: "Bond reduced.",
    empty,
    schema: ReductionInputSchema,
    toBody: (v, documentId) => ({
      kind: "reduction",
      amount: v.by === "amount" ? v.amount : null,
      percent: v.by === "percent" ? v.percent : null,
      effective_date: v.effective_date,
      obligee_acceptance_date: v.obligee_acceptance_date,
      reason: v.reason,
      document_id: documentId,
    }),
    fieldOf,
    onClose,
  });
  const values = useWatch({ control }) as ReductionValues;
  return (
    <StepDialog
      {...dialog}
      open={open}
      title="Reduce Bond"
      intro={`Lowers the bond amount of ${formatAmount(ledger.current_amount, ledger.currency) ?? "—"} once the obligee has accepted the reduction (work accepted, a retainage released).`}
      submitLabel="Save Reduction"
    >
      <ChoiceField
        control={control}
        name="by"
        label="Reduce by"
        options={[
          { value: "percent", label: "Percent" },
          { value: "amount", label: "Amount" },
        ]}
      />
      {values.by === "percent" ? (
        <DialogField
          key="percent"
          control={control}
          name="percent"
          label="Percent"
          required
          inputMode="decimal"
          helperText="Of the current amount, rounded to the cent."
          slotProps={{ input: { endAdornment: <InputAdornment position="end">%</InputAdornment> } }}
        />
      ) : (
        <MoneyField
          key="amount"
          control={control}
          name="amount"
          label="Amount"
          required
          helperText="How much comes off."
          currency={ledger.currency}
        />
      )}
      <DialogField control={control} name="effective_date" label="Effective Date" type="date" required />
      <DialogField
        control={control}
        name="obligee_acceptance_date"
        label="Obligee Acceptance Date"
        type="date"
        required
      />
      <NoteField control={control} name="reason" label="Reason" maxLength={BOND_LIMITS.reason} />
      <Preview ledger={ledger} step={reductionStep(values)} />
      <DocumentPicker
        document={document}
        label="Reduction document"
        hint="Optional: the obligee's acceptance or the surety's reduction rider."
        disabled={dialog.isBusy}
      />
    </StepDialog>
  );
}
