import { useState, type ReactNode } from "react";
import { Controller, useForm, useWatch, type Control, type FieldValues } from "react-hook-form";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormLabel from "@mui/material/FormLabel";
import InputAdornment from "@mui/material/InputAdornment";
import MenuItem from "@mui/material/MenuItem";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Typography from "@mui/material/Typography";
import type { ZodType } from "zod";
import {
  COLLATERAL_FORMS,
  COLLATERAL_FORM_LABELS,
  LEDGER_KIND_LABELS,
  MAINTENANCE_TERM_MONTHS,
  MONEY_PATTERN,
  PERCENT_PATTERN,
  nextLedgerState,
  type LedgerStep,
} from "../../../../../shared/domain/bonds.ts";
import {
  BOND_LIMITS,
  CancellationInputSchema,
  ClaimInputSchema,
  CollateralInputSchema,
  CollateralReleaseInputSchema,
  MaintenanceBondInputSchema,
  ReductionInputSchema,
  ReleaseInputSchema,
  ReversalInputSchema,
  RiderInputSchema,
  type BondLedger,
  type Collateral,
  type LedgerEntry,
  type LedgerEntryFormValues,
} from "../../../../../shared/schemas/bonds.ts";
import { errorMessage } from "../../../../lib/api.ts";
import { formatAmount, formatAmountChange, formatDay } from "../../../../lib/format.ts";
import {
  useAddCollateral,
  useAddLedgerEntry,
  useReleaseCollateral,
  useStartMaintenanceBond,
} from "../../api/bond-ledger.ts";
import {
  applyBodyErrors,
  bodyResolver,
  DocumentPicker,
  sameNames,
  useBondDocument,
  type FieldOf,
} from "./bond-form-tools.tsx";
import { DialogField, full, StepDialog } from "./lifecycle-dialogs.tsx";

interface BondDialogProps {
  permitId: string;
  ledger: BondLedger;
  open: boolean;
  onClose: () => void;
  today: string;
}

const moneyAdornment = (currency: string) => ({
  input: { startAdornment: <InputAdornment position="start">{currency}</InputAdornment> },
});

/** Two or three choices side by side (Increase/Decrease, Amount/Percent), as radio buttons. */
function Choice<T extends FieldValues>({
  control,
  name,
  label,
  options,
}: {
  control: Control<T>;
  name: Parameters<typeof Controller<T>>[0]["name"];
  label: string;
  options: { value: string; label: string }[];
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <FormControl sx={full}>
          <FormLabel id={`${String(name)}-label`}>{label}</FormLabel>
          <RadioGroup row aria-labelledby={`${String(name)}-label`} {...field}>
            {options.map((o) => (
              <FormControlLabel key={o.value} value={o.value} control={<Radio />} label={o.label} />
            ))}
          </RadioGroup>
        </FormControl>
      )}
    />
  );
}

/**
 * What the entry would do, worked out with the same rules the server applies (shared/domain/bonds.ts):
 * the new amount, or why the server would refuse. The server decides; this only tells in advance.
 */
function Preview({ ledger, step }: { ledger: BondLedger; step: LedgerStep | null }) {
  if (!step || ledger.current_amount === null) return null;
  const outcome = nextLedgerState(ledger.entries, step);
  return (
    <Typography
      variant="body2"
      role="status"
      sx={{ ...full, fontWeight: 600, color: outcome.ok ? "text.primary" : "warning.main" }}
    >
      {outcome.ok
        ? `New amount: ${formatAmount(outcome.amount_after, ledger.currency)} (${formatAmountChange(outcome.change, ledger.currency)})`
        : outcome.message}
    </Typography>
  );
}

const isMoney = (v: string) => MONEY_PATTERN.test(v.trim().replace(/,/g, ""));
const clean = (v: string) => v.trim().replace(/,/g, "");

/**
 * The frame of every ledger dialog: the form (validated with the contract's schema on the body it
 * sends), the optional document uploaded first, then the entry; field errors on their fields.
 */
function useLedgerForm<V extends FieldValues>({
  permitId,
  successMessage,
  empty,
  schema,
  toBody,
  fieldOf,
  onClose,
}: {
  permitId: string;
  successMessage: string;
  empty: V;
  schema: ZodType;
  toBody: (values: V, documentId: string | null) => LedgerEntryFormValues;
  fieldOf: FieldOf<V>;
  onClose: () => void;
}) {
  const add = useAddLedgerEntry(permitId, successMessage);
  const document = useBondDocument(permitId);
  const form = useForm<V>({
    resolver: bodyResolver(schema, (v: V) => toBody(v, null), fieldOf),
    values: empty,
  });
  const close = () => {
    form.reset(empty);
    document.reset();
    add.reset();
    onClose();
  };
  const onSubmit = form.handleSubmit(async (values) => {
    let documentId: string | null;
    try {
      documentId = await document.documentId();
    } catch {
      return; // shown in the dialog; nothing was saved
    }
    try {
      await add.mutateAsync(toBody(values, documentId));
    } catch (error) {
      applyBodyErrors(error, form.setError, fieldOf, values);
      return;
    }
    close();
  });
  const error =
    add.error ??
    (document.uploadError
      ? new Error(`The file could not be uploaded: ${errorMessage(document.uploadError)} Nothing was saved.`)
      : null);
  return { form, document, close, onSubmit, error, isBusy: form.formState.isSubmitting };
}

// ---------------------------------------------------------------------------------------------

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
  const { form, document, close, onSubmit, error, isBusy } = useLedgerForm({
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
  const values = useWatch({ control: form.control }) as RiderValues;
  const step: LedgerStep | null = isMoney(values.amount ?? "")
    ? { kind: "rider", change: riderChange(values) }
    : null;
  return (
    <StepDialog
      open={open}
      title="Add Rider"
      intro={`Changes the bond amount from ${formatAmount(ledger.current_amount, ledger.currency) ?? "—"} by a rider the surety issued.`}
      submitLabel="Save Rider"
      isBusy={isBusy}
      error={error}
      onSubmit={onSubmit}
      onClose={close}
    >
      <Choice
        control={form.control}
        name="direction"
        label="Change"
        options={[
          { value: "increase", label: "Increase" },
          { value: "decrease", label: "Decrease" },
        ]}
      />
      <DialogField
        control={form.control}
        name="amount"
        label="Amount"
        required
        inputMode="decimal"
        slotProps={moneyAdornment(ledger.currency)}
      />
      <DialogField control={form.control} name="effective_date" label="Effective Date" type="date" required />
      <DialogField
        control={form.control}
        name="reason"
        label="Reason"
        required
        multiline
        minRows={2}
        maxLength={BOND_LIMITS.reason}
        sx={full}
      />
      <Preview ledger={ledger} step={step} />
      <DocumentPicker
        document={document}
        label="Rider document"
        hint="Optional: the rider; it becomes the bond's current attachment."
        disabled={isBusy}
      />
    </StepDialog>
  );
}

// ---------------------------------------------------------------------------------------------

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
  const { form, document, close, onSubmit, error, isBusy } = useLedgerForm({
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
  const values = useWatch({ control: form.control }) as ReductionValues;
  return (
    <StepDialog
      open={open}
      title="Reduce Bond"
      intro={`Lowers the bond amount of ${formatAmount(ledger.current_amount, ledger.currency) ?? "—"} once the obligee has accepted the reduction (work accepted, a retainage released).`}
      submitLabel="Save Reduction"
      isBusy={isBusy}
      error={error}
      onSubmit={onSubmit}
      onClose={close}
    >
      <Choice
        control={form.control}
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
          control={form.control}
          name="percent"
          label="Percent"
          required
          inputMode="decimal"
          helperText="Of the current amount, rounded to the cent."
          slotProps={{ input: { endAdornment: <InputAdornment position="end">%</InputAdornment> } }}
        />
      ) : (
        <DialogField
          key="amount"
          control={form.control}
          name="amount"
          label="Amount"
          required
          inputMode="decimal"
          helperText="How much comes off."
          slotProps={moneyAdornment(ledger.currency)}
        />
      )}
      <DialogField control={form.control} name="effective_date" label="Effective Date" type="date" required />
      <DialogField
        control={form.control}
        name="obligee_acceptance_date"
        label="Obligee Acceptance Date"
        type="date"
        required
      />
      <DialogField
        control={form.control}
        name="reason"
        label="Reason"
        multiline
        minRows={2}
        maxLength={BOND_LIMITS.reason}
        sx={full}
      />
      <Preview ledger={ledger} step={reductionStep(values)} />
      <DocumentPicker
        document={document}
        label="Reduction document"
        hint="Optional: the obligee's acceptance or the surety's reduction rider."
        disabled={isBusy}
      />
    </StepDialog>
  );
}

// ---------------------------------------------------------------------------------------------

type DateReasonValues = { effective_date: string; reason: string };
const dateReasonFields = sameNames<DateReasonValues>(["effective_date", "reason"]);

/** One of the closing steps: a date, a reason, a document. */
function DateReasonDialog({
  permitId,
  ledger,
  open,
  onClose,
  today,
  kind,
  title,
  intro,
  submitLabel,
  successMessage,
  dateLabel,
  reasonRequired,
  documentLabel,
  documentHint,
}: BondDialogProps & {
  kind: "release" | "cancellation" | "claim";
  title: string;
  intro: ReactNode;
  submitLabel: string;
  successMessage: string;
  dateLabel: string;
  reasonRequired: boolean;
  documentLabel: string;
  documentHint: string;
}) {
  const schemas = {
    release: ReleaseInputSchema,
    cancellation: CancellationInputSchema,
    claim: ClaimInputSchema,
  };
  const { form, document, close, onSubmit, error, isBusy } = useLedgerForm({
    permitId,
    successMessage,
    empty: { effective_date: today, reason: "" },
    schema: schemas[kind],
    toBody: (v, documentId) => ({
      kind,
      effective_date: v.effective_date,
      reason: v.reason,
      document_id: documentId,
    }),
    fieldOf: dateReasonFields,
    onClose,
  });
  return (
    <StepDialog
      open={open}
      title={title}
      intro={intro}
      submitLabel={submitLabel}
      isBusy={isBusy}
      error={error}
      onSubmit={onSubmit}
      onClose={close}
    >
      <DialogField control={form.control} name="effective_date" label={dateLabel} type="date" required />
      <DialogField
        control={form.control}
        name="reason"
        label="Reason"
        required={reasonRequired}
        multiline
        minRows={2}
        maxLength={BOND_LIMITS.reason}
        sx={full}
      />
      {kind !== "claim" ? <Preview ledger={ledger} step={{ kind }} /> : null}
      <DocumentPicker document={document} label={documentLabel} hint={documentHint} disabled={isBusy} />
    </StepDialog>
  );
}

/** 'Release Bond': the date and the release letter; the amount goes to 0. */
export const ReleaseDialog = (props: BondDialogProps) => (
  <DateReasonDialog
    {...props}
    kind="release"
    title="Release Bond"
    intro={`The obligee released the bond: its amount of ${formatAmount(props.ledger.current_amount, props.ledger.currency) ?? "—"} goes to 0 and it stops counting as exposure. Its collateral can be released afterwards.`}
    submitLabel="Save Release"
    successMessage="Bond released."
    dateLabel="Release Date"
    reasonRequired={false}
    documentLabel="Release letter"
    documentHint="Optional: the obligee's release letter."
  />
);

/** 'Cancel Bond': the date and why; the amount goes to 0. */
export const CancelBondDialog = (props: BondDialogProps) => (
  <DateReasonDialog
    {...props}
    kind="cancellation"
    title="Cancel Bond"
    intro="The surety cancelled the bond: its amount goes to 0 and it stops counting as exposure."
    submitLabel="Save Cancellation"
    successMessage="Bond cancelled."
    dateLabel="Effective Date"
    reasonRequired
    documentLabel="Cancellation document"
    documentHint="Optional: the notice of cancellation."
  />
);

/** 'Record Claim': the date and what happened; the amount stays, the status becomes Claimed. */
export const ClaimDialog = (props: BondDialogProps) => (
  <DateReasonDialog
    {...props}
    kind="claim"
    title="Record Claim"
    intro="A claim was made against the bond. Its amount stays; afterwards it can only be released, cancelled, or the claim reversed."
    submitLabel="Save Claim"
    successMessage="Claim recorded."
    dateLabel="Claim Date"
    reasonRequired
    documentLabel="Claim document"
    documentHint="Optional: the claim notice."
  />
);

// ---------------------------------------------------------------------------------------------

/** 'Reverse': a new entry undoing one entry's change; entries are never edited or deleted. */
export function ReverseDialog({
  permitId,
  ledger,
  entry,
  onClose,
  today,
}: Omit<BondDialogProps, "open"> & { entry: LedgerEntry | null }) {
  const { form, close, onSubmit, error, isBusy } = useLedgerForm({
    permitId,
    successMessage: "Entry reversed.",
    empty: { effective_date: today, reason: "" },
    schema: ReversalInputSchema,
    toBody: (v) => ({
      kind: "reversal",
      reverses_id: entry?.id ?? "",
      effective_date: v.effective_date,
      reason: v.reason,
    }),
    fieldOf: dateReasonFields,
    onClose,
  });
  // Kept while the dialog closes, so its text does not empty under the fade.
  const [shown, setShown] = useState(entry);
  if (entry && entry !== shown) setShown(entry);
  const what = shown
    ? `the ${LEDGER_KIND_LABELS[shown.kind]} of ${formatDay(shown.effective_date)} (${formatAmountChange(shown.change, ledger.currency)})`
    : "";
  return (
    <StepDialog
      open={!!entry}
      title="Reverse Entry"
      intro={`Adds a Reversal that undoes ${what}. Ledger entries are never edited or deleted; the reversal stays in the ledger beside it.`}
      submitLabel="Reverse Entry"
      isBusy={isBusy}
      error={error}
      onSubmit={onSubmit}
      onClose={close}
    >
      <DialogField control={form.control} name="effective_date" label="Effective Date" type="date" required />
      <DialogField
        control={form.control}
        name="reason"
        label="Reason"
        required
        multiline
        minRows={2}
        maxLength={BOND_LIMITS.reason}
        sx={full}
      />
      {entry ? <Preview ledger={ledger} step={{ kind: "reversal", reverses_id: entry.id }} /> : null}
    </StepDialog>
  );
}

// ---------------------------------------------------------------------------------------------

/** A form of its own (no ledger entry): validated with the contract's schema as it is sent. */
function usePlainForm<V extends FieldValues>(
  schema: ZodType,
  empty: V,
  names: readonly (keyof V & string)[],
) {
  const fieldOf = sameNames<V>(names as never);
  const form = useForm<V>({
    resolver: bodyResolver(schema, (v: V) => v, fieldOf),
    values: empty,
  });
  return { form, fieldOf };
}

type MaintenanceValues = { amount: string; term_months: string; start_date: string; bond_number: string };

/** 'Start Maintenance Bond': the maintenance bond that follows this performance bond once work is accepted. */
export function MaintenanceBondDialog({ permitId, ledger, open, onClose, today }: BondDialogProps) {
  const start = useStartMaintenanceBond(permitId);
  const empty: MaintenanceValues = { amount: "", term_months: "12", start_date: today, bond_number: "" };
  const { form, fieldOf } = usePlainForm(MaintenanceBondInputSchema, empty, [
    "amount",
    "term_months",
    "start_date",
    "bond_number",
  ]);
  const close = () => {
    form.reset(empty);
    start.reset();
    onClose();
  };
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await start.mutateAsync(values);
      close();
    } catch (error) {
      applyBodyErrors(error, form.setError, fieldOf, values);
    }
  });
  return (
    <StepDialog
      open={open}
      title="Start Maintenance Bond"
      intro={`The work is accepted: a Maintenance bond follows this Performance bond${ledger.surety ? `, with ${ledger.surety.name}` : ""}, for the maintenance term. It gets its own ledger and is linked both ways.`}
      submitLabel="Start Maintenance Bond"
      isBusy={form.formState.isSubmitting}
      error={start.error}
      onSubmit={onSubmit}
      onClose={close}
    >
      <DialogField
        control={form.control}
        name="amount"
        label="Amount"
        required
        inputMode="decimal"
        slotProps={moneyAdornment(ledger.currency)}
      />
      <DialogField control={form.control} name="term_months" label="Term" select required>
        {MAINTENANCE_TERM_MONTHS.map((m) => (
          <MenuItem key={m} value={String(m)}>
            {m} months ({m / 12} year{m === 12 ? "" : "s"})
          </MenuItem>
        ))}
      </DialogField>
      <DialogField control={form.control} name="start_date" label="Start Date" type="date" required />
      <DialogField
        control={form.control}
        name="bond_number"
        label="Bond Number"
        maxLength={BOND_LIMITS.bondNumber}
        helperText="Leave empty if the surety has not issued it yet."
      />
    </StepDialog>
  );
}

// ---------------------------------------------------------------------------------------------

type CollateralValues = { form: string; amount: string; held_since: string; note: string };

/** 'Add Collateral': what the surety holds against the bond (Letter of Credit, Cash, Other). */
export function AddCollateralDialog({ permitId, ledger, open, onClose, today }: BondDialogProps) {
  const add = useAddCollateral(permitId);
  const empty: CollateralValues = { form: "", amount: "", held_since: today, note: "" };
  const { form, fieldOf } = usePlainForm(CollateralInputSchema, empty, [
    "form",
    "amount",
    "held_since",
    "note",
  ]);
  const close = () => {
    form.reset(empty);
    add.reset();
    onClose();
  };
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await add.mutateAsync(values as never);
      close();
    } catch (error) {
      applyBodyErrors(error, form.setError, fieldOf, values);
    }
  });
  return (
    <StepDialog
      open={open}
      title="Add Collateral"
      intro="Collateral the surety holds against this bond. It is released with or after the bond."
      submitLabel="Save Collateral"
      isBusy={form.formState.isSubmitting}
      error={add.error}
      onSubmit={onSubmit}
      onClose={close}
    >
      <DialogField control={form.control} name="form" label="Form" select required>
        <MenuItem value="" disabled>
          Select a form
        </MenuItem>
        {COLLATERAL_FORMS.map((f) => (
          <MenuItem key={f} value={f}>
            {COLLATERAL_FORM_LABELS[f]}
          </MenuItem>
        ))}
      </DialogField>
      <DialogField
        control={form.control}
        name="amount"
        label="Amount"
        required
        inputMode="decimal"
        slotProps={moneyAdornment(ledger.currency)}
      />
      <DialogField control={form.control} name="held_since" label="Held Since" type="date" required />
      <DialogField
        control={form.control}
        name="note"
        label="Note"
        multiline
        minRows={2}
        maxLength={BOND_LIMITS.note}
        sx={full}
      />
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
  const empty = { released_on: today };
  const { form, fieldOf } = usePlainForm(CollateralReleaseInputSchema, empty, ["released_on"]);
  const [shown, setShown] = useState(collateral);
  if (collateral && collateral !== shown) setShown(collateral);
  const close = () => {
    form.reset(empty);
    release.reset();
    onClose();
  };
  const onSubmit = form.handleSubmit(async (values) => {
    if (!collateral) return;
    try {
      await release.mutateAsync({ id: collateral.id, ...values });
      close();
    } catch (error) {
      applyBodyErrors(error, form.setError, fieldOf, values);
    }
  });
  return (
    <StepDialog
      open={!!collateral}
      title="Release Collateral"
      intro={
        shown
          ? `The surety gave back the ${COLLATERAL_FORM_LABELS[shown.form]} of ${formatAmount(shown.amount, ledger.currency)}, held since ${formatDay(shown.held_since)}.`
          : undefined
      }
      submitLabel="Release Collateral"
      isBusy={form.formState.isSubmitting}
      error={release.error}
      onSubmit={onSubmit}
      onClose={close}
    >
      <DialogField control={form.control} name="released_on" label="Released On" type="date" required />
    </StepDialog>
  );
}
