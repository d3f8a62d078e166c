// The step dialogs' kit (a permit's renewal, a bond's rider, collateral, ...): the frame, the
// fields, the document picker and the form hook that owns the dialog's life.
export { full, StepDialog } from "./step-dialog.tsx";
export {
  ChoiceField,
  DialogField,
  InternalField,
  MoneyField,
  NoteField,
  type FieldOption,
} from "./dialog-field.tsx";
export {
  DocumentPicker,
  FileChooser,
  useDocument,
  type DocumentState,
  type UploadFile,
} from "./document-picker.tsx";
export { useStepForm, type StepFormOptions } from "./use-step-form.ts";
export { DateReasonDialog, type DateReason } from "./date-reason-dialog.tsx";
