import { useState, type ReactNode } from "react";
import { LEDGER_KIND_LABELS } from "../../../../shared/domain/bonds.ts";
import {
  BOND_LIMITS,
  CancellationInputSchema,
  ClaimInputSchema,
  ReleaseInputSchema,
  ReversalInputSchema,
  type LedgerEntry,
  type LedgerEntryFormValues,
} from "../../../../shared/schemas/bonds.ts";
import { DateReasonDialog } from "../../../components/dialog-kit/index.ts";
import { formatAmount, formatAmountChange, formatDay } from "../../../lib/format.ts";
import { useLedgerDocumentUpload } from "../api/upload-ledger-document.ts";
import { useAddLedgerEntry } from "../api/bond-ledger.ts";
import { Preview, type BondDialogProps } from "./ledger-step.tsx";

const SCHEMAS = {
  release: ReleaseInputSchema,
  cancellation: CancellationInputSchema,
  claim: ClaimInputSchema,
};

/** One of the closing steps: a date, a reason, a document. */
function ClosingDialog({
  permitId,
  ledger,
  open,
  onClose,
  today,
  kind,
  successMessage,
  documentLabel,
  documentHint,
  ...texts
}: BondDialogProps & {
  kind: keyof typeof SCHEMAS;
  title: string;
  intro: ReactNode;
  submitLabel: string;
  cancelLabel?: string;
  successMessage: string;
  dateLabel: string;
  reasonRequired: boolean;
  documentLabel: string;
  documentHint: string;
}) {
  const add = useAddLedgerEntry(permitId, successMessage);
  const upload = useLedgerDocumentUpload(permitId);
  return (
    <DateReasonDialog
      {...texts}
      open={open}
      onClose={onClose}
      initialDate={today}
      dateField="effective_date"
      reasonMaxLength={BOND_LIMITS.reason}
      schema={SCHEMAS[kind]}
      toBody={(v, documentId): LedgerEntryFormValues => ({
        kind,
        effective_date: v.date,
        reason: v.reason,
        document_id: documentId,
      })}
      save={add.mutateAsync}
      document={{ label: documentLabel, hint: documentHint, upload }}
    >
      {kind !== "claim" ? <Preview ledger={ledger} step={{ kind }} /> : null}
    </DateReasonDialog>
  );
}

/** 'Release Bond': the date and the release letter; the amount goes to 0. */
export const ReleaseDialog = (props: BondDialogProps) => (
  <ClosingDialog
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
  <ClosingDialog
    {...props}
    kind="cancellation"
    title="Cancel Bond"
    intro="The surety cancelled the bond: its amount goes to 0 and it stops counting as exposure."
    submitLabel="Save Cancellation"
    cancelLabel="Keep Bond"
    successMessage="Bond cancelled."
    dateLabel="Effective Date"
    reasonRequired
    documentLabel="Cancellation document"
    documentHint="Optional: the notice of cancellation."
  />
);

/** 'Record Claim': the date and what happened; the amount stays, the status becomes Claimed. */
export const ClaimDialog = (props: BondDialogProps) => (
  <ClosingDialog
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

/** 'Reverse': a new entry undoing one entry's change; entries are never edited or deleted. */
export function ReverseDialog({
  permitId,
  ledger,
  entry,
  onClose,
  today,
}: Omit<BondDialogProps, "open"> & { entry: LedgerEntry | null }) {
  const add = useAddLedgerEntry(permitId, "Entry reversed.");
  // Kept while the dialog closes, so its text does not empty under the fade.
  const [shown, setShown] = useState(entry);
  if (entry && entry !== shown) setShown(entry);
  const what = shown
    ? `the ${LEDGER_KIND_LABELS[shown.kind]} of ${formatDay(shown.effective_date)} (${formatAmountChange(shown.change, ledger.currency)})`
    : "";
  return (
    <DateReasonDialog
      open={!!entry}
      onClose={onClose}
      title="Reverse Entry"
      intro={`Adds a Reversal that undoes ${what}. Ledger entries are never edited or deleted; the reversal stays in the ledger beside it.`}
      submitLabel="Reverse Entry"
      initialDate={today}
      dateLabel="Effective Date"
      dateField="effective_date"
      reasonRequired
      reasonMaxLength={BOND_LIMITS.reason}
      schema={ReversalInputSchema}
      toBody={(v): LedgerEntryFormValues => ({
        kind: "reversal",
        reverses_id: entry?.id ?? "",
        effective_date: v.date,
        reason: v.reason,
      })}
      save={add.mutateAsync}
    >
      {entry ? <Preview ledger={ledger} step={{ kind: "reversal", reverses_id: entry.id }} /> : null}
    </DateReasonDialog>
  );
}
