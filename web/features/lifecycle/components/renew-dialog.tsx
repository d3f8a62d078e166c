import {
  LIFECYCLE_LIMITS,
  RenewalInputSchema,
  type RenewalFormValues,
} from "../../../../shared/schemas/lifecycle.ts";
import {
  DialogField,
  DocumentPicker,
  type DocumentState,
  full,
  InternalField,
  MoneyField,
  NoteField,
  StepDialog,
  useDocument,
  useStepForm,
} from "../../../components/dialog-kit/index.ts";
import { errorMessage } from "../../../lib/api.ts";
import { formatDay } from "../../../lib/format.ts";
import { useNotify, type NotifyFn } from "../../../lib/notify.ts";
import { usePermitDocumentUpload } from "../../attachments/index.ts";
import { useRenewPermit } from "../api/lifecycle-steps.ts";

/** The renewal's file, once the renewal is saved: a failed upload leaves the renewal as it is. */
async function attachRenewalFile(document: DocumentState, notify: NotifyFn) {
  const file = document.file;
  if (!file) return;
  try {
    await document.upload();
    notify(`${file.name} attached to the permit.`, "success");
  } catch (error) {
    notify(
      `The permit was renewed, but the file could not be uploaded: ${errorMessage(error)} Upload it again under Attachments.`,
      "error",
    );
  }
}

/**
 * 'Renew Permit': a new term with a later expiry (and optionally a new issue date, number, fee in
 * the company's currency, note). The optional file goes through the attachments upload once the
 * renewal is saved.
 */
export function RenewDialog({
  permitId,
  open,
  onClose,
  currentNumber,
  currentExpiry,
  currency,
}: {
  permitId: string;
  open: boolean;
  onClose: () => void;
  currentNumber: string;
  currentExpiry: string | null;
  currency: string;
}) {
  const renew = useRenewPermit(permitId);
  const notify = useNotify();
  const document = useDocument(usePermitDocumentUpload(permitId));
  const { control, dialog } = useStepForm<RenewalFormValues>({
    empty: {
      new_expiration_date: "",
      new_issue_date: "",
      new_permit_number: currentNumber,
      renewal_fee: "",
      // Issue 25: a fee is internal unless unticked; a note is shown, as a comment, unless ticked.
      renewal_fee_internal: true,
      note: "",
      note_internal: false,
    },
    schema: RenewalInputSchema,
    save: async (values) => {
      await renew.mutateAsync(values);
      await attachRenewalFile(document, notify);
    },
    onClose: () => {
      document.reset();
      onClose();
    },
  });
  return (
    <StepDialog
      {...dialog}
      open={open}
      title="Renew Permit"
      intro={`Ends the current term and starts a new one. The new expiration date must come after ${
        formatDay(currentExpiry) ?? "the current one"
      }.`}
      submitLabel="Save Renewal"
    >
      <DialogField
        control={control}
        name="new_expiration_date"
        label="New Expiration Date"
        type="date"
        required
      />
      <DialogField control={control} name="new_issue_date" label="New Issue Date" type="date" />
      <DialogField
        control={control}
        name="new_permit_number"
        label="New Permit Number"
        maxLength={LIFECYCLE_LIMITS.permitNumber}
        helperText="Keep it if the agency did not issue a new one."
        sx={full}
      />
      <MoneyField control={control} name="renewal_fee" label="Renewal Fee" currency={currency} />
      <InternalField control={control} name="renewal_fee_internal" of="Renewal Fee" />
      <NoteField control={control} name="note" label="Note" maxLength={LIFECYCLE_LIMITS.note} />
      <InternalField control={control} name="note_internal" of="Note" sx={full} />
      <DocumentPicker
        document={document}
        label="Renewal file"
        hint="Optional: the renewed permit; it becomes the permit's current attachment."
        disabled={dialog.isBusy}
      />
    </StepDialog>
  );
}
