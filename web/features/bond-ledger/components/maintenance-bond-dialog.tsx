import { MAINTENANCE_TERM_MONTHS } from "../../../../shared/domain/bonds.ts";
import { BOND_LIMITS, MaintenanceBondInputSchema } from "../../../../shared/schemas/bonds.ts";
import { DialogField, MoneyField, StepDialog, useStepForm } from "../../../components/dialog-kit/index.ts";
import { useStartMaintenanceBond } from "../api/bond-ledger.ts";
import type { BondDialogProps } from "./ledger-step.tsx";

type MaintenanceValues = { amount: string; term_months: string; start_date: string; bond_number: string };

/** 'Start Maintenance Bond': the maintenance bond that follows this performance bond once work is accepted. */
export function MaintenanceBondDialog({ permitId, ledger, open, onClose, today }: BondDialogProps) {
  const start = useStartMaintenanceBond(permitId);
  const { control, dialog } = useStepForm<MaintenanceValues>({
    empty: { amount: "", term_months: "12", start_date: today, bond_number: "" },
    schema: MaintenanceBondInputSchema,
    save: (values) => start.mutateAsync(values),
    onClose,
  });
  return (
    <StepDialog
      {...dialog}
      open={open}
      title="Start Maintenance Bond"
      intro={`The work is accepted: a Maintenance bond follows this Performance bond${ledger.surety ? `, with ${ledger.surety.name}` : ""}, for the maintenance term. It gets its own ledger and is linked both ways.`}
      submitLabel="Start Maintenance Bond"
    >
      <MoneyField control={control} name="amount" label="Amount" required currency={ledger.currency} />
      <DialogField
        control={control}
        name="term_months"
        label="Term"
        required
        options={MAINTENANCE_TERM_MONTHS.map((m) => ({
          value: String(m),
          label: `${m} months (${m / 12} year${m === 12 ? "" : "s"})`,
        }))}
      />
      <DialogField control={control} name="start_date" label="Start Date" type="date" required />
      <DialogField
        control={control}
        name="bond_number"
        label="Bond Number"
        maxLength={BOND_LIMITS.bondNumber}
        helperText="Leave empty if the surety has not issued it yet."
      />
    </StepDialog>
  );
}
