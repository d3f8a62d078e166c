import { useWatch, type UseFormSetValue } from "react-hook-form";
import type { Suggestion, SuggestionField } from "../../../../shared/domain/document-reading.ts";
import type { PermitFormValues } from "../../../../shared/schemas/permits.ts";
import { StagedSuggestions, type CurrentValues } from "../../document-suggestions/index.ts";
import { useSureties } from "../../sureties/index.ts";
import type { PermitFormControl } from "./permit-form-values.ts";

/** The suggested fields the permit form has, by the form's own names (the same ones). */
const FORM_FIELDS = [
  "permit_number",
  "issue_date",
  "expiration_date",
  "agency",
  "bond_number",
  "bond_amount",
  "surety_company",
] as const satisfies readonly (SuggestionField & keyof PermitFormValues)[];
type FormField = (typeof FORM_FIELDS)[number];
const BOND_FIELDS: readonly SuggestionField[] = ["bond_number", "bond_amount", "surety_company"];
const isFormField = (field: SuggestionField): field is FormField =>
  (FORM_FIELDS as readonly string[]).includes(field);

/**
 * Issue 28 on the permit form: the chosen file's suggestions under 'Permit File Upload', each
 * beside the form's value; Accept fills the field (dirty and validated, as if typed), Accept All
 * every field the form has. A surety is matched by name to the company's sureties.
 */
export function PermitFormSuggestions({
  control,
  setValue,
  file,
  companyId,
  needsCompany,
  hasLedger,
}: {
  control: PermitFormControl;
  setValue: UseFormSetValue<PermitFormValues>;
  file: File | null;
  /** A super-admin's chosen company ("" until chosen); null: the user's own. */
  companyId: string | null;
  needsCompany: boolean;
  hasLedger: boolean;
}) {
  const values = useWatch({ control, name: [...FORM_FIELDS, "record_type"] });
  const isBond = values[FORM_FIELDS.length] === "bond";
  const sureties = useSureties(companyId, { enabled: !!file && isBond });
  const current: CurrentValues = {};
  FORM_FIELDS.forEach((field, i) => {
    if (isBond || !BOND_FIELDS.includes(field)) current[field] = String(values[i] ?? "");
  });

  const refusal = (field: SuggestionField) => {
    if (!isFormField(field)) return "Not a field of this form.";
    if (!isBond && BOND_FIELDS.includes(field))
      return "A bond’s field: choose the Bond record type to use it.";
    if (field === "bond_amount" && hasLedger) return "Record a Rider in the Bond Ledger to change it.";
    return null;
  };

  const onAccept = (chosen: Suggestion[]) => {
    const options = { shouldDirty: true, shouldValidate: true } as const;
    for (const s of chosen) {
      if (!isFormField(s.field)) continue;
      if (s.field === "surety_company") {
        const surety = sureties.data?.sureties.find(
          (one) => one.name.trim().toLowerCase() === s.value.trim().toLowerCase(),
        );
        setValue("surety_company", surety?.name ?? s.value, options);
        setValue("surety_id", surety?.id ?? "", options);
      } else {
        setValue(s.field, s.value, options);
      }
    }
  };

  return (
    <StagedSuggestions
      file={file}
      companyId={companyId}
      needsCompany={needsCompany}
      current={current}
      currency={null}
      refusal={refusal}
      onAccept={onAccept}
    />
  );
}
