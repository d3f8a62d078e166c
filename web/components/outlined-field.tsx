import { useId, type ChangeEvent, type ReactNode } from "react";
import FormControl from "@mui/material/FormControl";
import InputLabel from "@mui/material/InputLabel";
import OutlinedInput, { type OutlinedInputProps } from "@mui/material/OutlinedInput";
import type { SxProps, Theme } from "@mui/material/styles";

/**
 * An outlined text input with its label: what MUI's TextField renders for a text (or date) input,
 * without TextField's built-in Select, which would bring Menu, Popover and Modal onto the page
 * (see FormTextField for the react-hook-form version). For a dropdown use SelectField.
 */
export function OutlinedField({
  label,
  value,
  onChange,
  type,
  placeholder,
  size,
  shrinkLabel,
  startAdornment,
  htmlInputProps,
  sx,
}: {
  /** Visible label; also the input's accessible name (getByLabel). */
  label: ReactNode;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  type?: string;
  placeholder?: string;
  size?: "small" | "medium";
  /** Keeps the label above the field when it is empty (date inputs show their own mask). */
  shrinkLabel?: boolean;
  startAdornment?: ReactNode;
  /** Attributes for the <input> itself (maxLength, min, max, type...). */
  htmlInputProps?: OutlinedInputProps["inputProps"];
  sx?: SxProps<Theme>;
}) {
  const id = useId();
  return (
    <FormControl variant="outlined" size={size} sx={sx}>
      <InputLabel htmlFor={id} id={`${id}-label`} shrink={shrinkLabel || undefined}>
        {label}
      </InputLabel>
      <OutlinedInput
        id={id}
        label={label}
        notched={shrinkLabel || undefined}
        value={value}
        onChange={onChange}
        type={type}
        placeholder={placeholder}
        startAdornment={startAdornment}
        inputProps={htmlInputProps}
      />
    </FormControl>
  );
}
