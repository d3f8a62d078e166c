import { useMemo, type Ref } from "react";
import Autocomplete from "@mui/material/Autocomplete";
import TextField from "@mui/material/TextField";
import { PERMIT_LIMITS } from "../../../../shared/domain/permit-fields.ts";
import { useSureties } from "../api/list-sureties.ts";

/**
 * The bond form's 'Surety Company' (issue 12): one of the company's sureties, or a name typed free,
 * which becomes a new surety when the bond is saved (as the project form's Client field creates a
 * client). A name that matches a surety in any case is that surety.
 */
export function SuretyField({
  companyId,
  value,
  onChange,
  onBlur,
  inputRef,
  error,
  name = "surety_company",
}: {
  /** The bond's company (a super-admin's form names it); null: the user's own. */
  companyId: string | null;
  /** The surety's name as typed or chosen. */
  value: string;
  /** The name, and the surety's id when it is one of the company's (null for a new name). */
  onChange: (name: string, suretyId: string | null) => void;
  onBlur?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  /** The field's error (schema or server). */
  error?: string;
  name?: string;
}) {
  const sureties = useSureties(companyId);
  const options = useMemo(() => sureties.data?.sureties ?? [], [sureties.data]);
  const idOf = (typed: string) =>
    options.find((s) => s.name.toLowerCase() === typed.trim().toLowerCase())?.id ?? null;
  const typed = value.trim();
  const isNew = typed !== "" && sureties.isSuccess && idOf(typed) === null;
  return (
    <Autocomplete
      freeSolo
      options={options.map((s) => s.name)}
      inputValue={value}
      onInputChange={(_event, next) => onChange(next, idOf(next))}
      loading={sureties.isFetching}
      renderInput={(params) => (
        <TextField
          {...params}
          label="Surety Company"
          name={name}
          inputRef={inputRef}
          onBlur={onBlur}
          error={!!error}
          helperText={
            error ??
            (isNew
              ? `"${typed}" is a new surety: it will be added to Surety Admin.`
              : "Pick one of the company's sureties or type a new name.")
          }
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, maxLength: PERMIT_LIMITS.shortText },
          }}
        />
      )}
    />
  );
}
