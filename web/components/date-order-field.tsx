import type { Ref } from "react";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import type { DateOrder } from "../../shared/domain/document-reading.ts";

/** How the document reader takes a numeric date such as 03/04/2026 (issue 28). */
export const DATE_ORDER_OPTIONS: readonly { value: DateOrder; label: string }[] = [
  { value: "MDY", label: "Month first (03/04/2026 = March 4)" },
  { value: "DMY", label: "Day first (03/04/2026 = 3 April)" },
];

/**
 * A company's 'Date Order' (issue 28): the super-admin's company form and a company admin's
 * settings. Decides which date 03/04/2026 is when a document is read.
 */
export function DateOrderField({
  value,
  onChange,
  onBlur,
  inputRef,
  error,
  disabled,
}: {
  value: string | undefined;
  onChange: (value: DateOrder) => void;
  onBlur?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  error?: string;
  disabled?: boolean;
}) {
  return (
    <TextField
      select
      fullWidth
      label="Date Order"
      value={value || "MDY"}
      onChange={(event) => onChange(event.target.value as DateOrder)}
      onBlur={onBlur}
      inputRef={inputRef}
      disabled={disabled}
      error={!!error}
      helperText={error ?? "How dates such as 03/04/2026 are read from uploaded documents."}
    >
      {DATE_ORDER_OPTIONS.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
