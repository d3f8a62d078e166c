import type { ReactNode } from "react";
import type { ZodType } from "zod";
import { DialogField, InternalField, NoteField } from "./dialog-field.tsx";
import { DocumentPicker, useDocument, type UploadFile } from "./document-picker.tsx";
import { full, StepDialog } from "./step-dialog.tsx";
import { useStepForm } from "./use-step-form.ts";

/** What the person types: the date and why (and, with `internalField`, whether the why is internal). */
export type DateReason = { date: string; reason: string; internal: boolean };

const noUpload: UploadFile = () => Promise.reject(new Error("No upload"));

/**
 * The step of a date, a reason and (optionally) a document: a permit's extension, a bond's
 * release, cancellation, claim or the reversal of a ledger entry. `toBody` makes the API's body
 * (whose date field is `dateField`), which the contract's `schema` checks before it is sent.
 */
export function DateReasonDialog<B>({
  open,
  onClose,
  title,
  intro,
  submitLabel,
  cancelLabel,
  initialDate,
  dateLabel,
  dateField,
  reasonRequired,
  reasonMaxLength,
  internalField,
  schema,
  toBody,
  save,
  document,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  intro: ReactNode;
  submitLabel: string;
  cancelLabel?: string;
  initialDate: string;
  dateLabel: string;
  dateField: string;
  reasonRequired: boolean;
  reasonMaxLength: number;
  /**
   * The body's field of the reason's 'Internal' switch (issue 25: an extension's reason_internal):
   * given, the switch is shown below the reason, unticked, and its value is `internal` in toBody.
   */
  internalField?: string;
  schema: ZodType;
  toBody: (values: DateReason, documentId: string | null) => B;
  save: (body: B) => Promise<unknown>;
  /** The optional document: its input's accessible name, what it is for, and its upload. */
  document?: { label: string; hint: string; upload: UploadFile };
  /** Below the reason: what the step would do (a bond's new amount). */
  children?: ReactNode;
}) {
  const picked = useDocument(document?.upload ?? noUpload);
  const { control, dialog } = useStepForm<DateReason>({
    empty: { date: initialDate, reason: "", internal: false },
    schema,
    toBody: (values) => toBody(values, null),
    fieldOf: (field) =>
      field === dateField
        ? "date"
        : field === "reason"
          ? "reason"
          : internalField && field === internalField
            ? "internal"
            : null,
    document: document ? picked : undefined,
    save: (values, documentId) => save(toBody(values, documentId)),
    onClose,
  });
  return (
    <StepDialog
      {...dialog}
      open={open}
      title={title}
      intro={intro}
      submitLabel={submitLabel}
      cancelLabel={cancelLabel}
    >
      <DialogField control={control} name="date" label={dateLabel} type="date" required />
      <NoteField
        control={control}
        name="reason"
        label="Reason"
        required={reasonRequired}
        maxLength={reasonMaxLength}
      />
      {internalField ? <InternalField control={control} name="internal" of="Reason" sx={full} /> : null}
      {children}
      {document ? (
        <DocumentPicker
          document={picked}
          label={document.label}
          hint={document.hint}
          disabled={dialog.isBusy}
        />
      ) : null}
    </StepDialog>
  );
}
