import { useState } from "react";
import { useForm, type FieldValues, type Path } from "react-hook-form";
import type { ZodType } from "zod";
import { errorMessage } from "../../lib/api.ts";
import { applyServerFieldErrors, sameNames, type FieldOf } from "../../lib/form-errors.ts";
import { formResolver } from "../../lib/form-resolver.ts";
import type { DocumentState } from "./document-picker.tsx";

export interface StepFormOptions<V extends FieldValues> {
  /** The form's values when it opens, and again once it closes. */
  empty: V;
  /** The contract's schema of the body sent (shared/schemas): its messages are the server's. */
  schema: ZodType;
  /** The body made of the values; by default the values are the body. */
  toBody?: (values: V) => unknown;
  /** Which field an API field's message goes on; by default the field of the same name. */
  fieldOf?: FieldOf<V>;
  /** A document uploaded before the save, whose id `save` gets; cleared on close. */
  document?: DocumentState;
  /** Sends the step. */
  save: (values: V, documentId: string | null) => Promise<unknown>;
  onClose: () => void;
}

/**
 * The life of a step dialog's form: checked with the contract's schema, the document uploaded
 * first (a failed upload saves nothing), then the save; a VALIDATION answer's messages on their
 * fields and any other error for the dialog to show; closed (and emptied) once saved or cancelled.
 * `dialog` holds what StepDialog shows of it: busy while saving, the error, submit and close.
 */
export function useStepForm<V extends FieldValues>({
  empty,
  schema,
  toBody = (values) => values,
  fieldOf = sameNames<V>(Object.keys(empty) as Path<V>[]),
  document,
  save,
  onClose,
}: StepFormOptions<V>) {
  const form = useForm<V>({ resolver: formResolver<V>(schema, { toBody, fieldOf }), values: empty });
  const [error, setError] = useState<unknown>(null);
  const close = () => {
    form.reset(empty);
    document?.reset();
    setError(null);
    onClose();
  };
  const onSubmit = form.handleSubmit(async (values) => {
    setError(null);
    let documentId: string | null;
    try {
      documentId = (await document?.upload()) ?? null;
    } catch (uploadError) {
      setError(new Error(`The file could not be uploaded: ${errorMessage(uploadError)} Nothing was saved.`));
      return;
    }
    try {
      await save(values, documentId);
    } catch (saveError) {
      setError(saveError);
      applyServerFieldErrors(saveError, form.setError, fieldOf, values);
      return;
    }
    close();
  });
  // What StepDialog takes of it: <StepDialog {...dialog} open title intro submitLabel>.
  const dialog = { isBusy: form.formState.isSubmitting, error, onSubmit, onClose: close };
  return { form, control: form.control, dialog };
}
