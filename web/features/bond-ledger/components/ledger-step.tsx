import Typography from "@mui/material/Typography";
import type { ZodType } from "zod";
import { MONEY_PATTERN, nextLedgerState, type LedgerStep } from "../../../../shared/domain/bonds.ts";
import type { BondLedger, LedgerEntryFormValues } from "../../../../shared/schemas/bonds.ts";
import { full, useDocument, useStepForm } from "../../../components/dialog-kit/index.ts";
import type { FieldOf } from "../../../lib/form-errors.ts";
import { formatAmount, formatAmountChange } from "../../../lib/format.ts";
import { useLedgerDocumentUpload } from "../api/upload-ledger-document.ts";
import { useAddLedgerEntry } from "../api/bond-ledger.ts";

/** What every bond dialog is given: the bond, its ledger, today (the company's), and its closing. */
export interface BondDialogProps {
  permitId: string;
  ledger: BondLedger;
  open: boolean;
  onClose: () => void;
  today: string;
}

/**
 * What the entry would do, worked out with the same rules the server applies (shared/domain/bonds.ts):
 * the new amount, or why the server would refuse. The server decides; this only tells in advance.
 */
export function Preview({ ledger, step }: { ledger: BondLedger; step: LedgerStep | null }) {
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

export const isMoney = (v: string) => MONEY_PATTERN.test(v.trim().replace(/,/g, ""));
export const clean = (v: string) => v.trim().replace(/,/g, "");

/**
 * A ledger entry's form: what the person types (`V`) checked as the contract's body it makes
 * (`toBody`), the optional document uploaded first, then the entry.
 */
export function useLedgerStep<V extends Record<string, string>>({
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
  const document = useDocument(useLedgerDocumentUpload(permitId));
  const step = useStepForm<V>({
    empty,
    schema,
    toBody: (values) => toBody(values, null),
    fieldOf,
    document,
    save: (values, documentId) => add.mutateAsync(toBody(values, documentId)),
    onClose,
  });
  return { ...step, document };
}
